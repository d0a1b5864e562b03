// ChildStack: an anonymous mapping for a process made with clone(CLONE_VM), which shares our
// memory but needs a stack of its own. Unmapped when the owner ends, so the owner must
// outlive the process that runs on it.
#pragma once

#include <sys/mman.h>

#include <cerrno>
#include <cstddef>

#include "support/sys_error.hpp"

namespace sbx::support {

class ChildStack {
  public:
    // Small: the init and the target's first steps make a handful of system calls.
    static constexpr std::size_t kSize = std::size_t{64} * 1024;
    ChildStack()
        : base_(::mmap(nullptr, kSize, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0)) {
        if (base_ == MAP_FAILED) {
            throw_system_error("cannot map a stack for a child process", errno);
        }
    }
    ~ChildStack() { ::munmap(base_, kSize); }
    ChildStack(const ChildStack &) = delete;
    ChildStack &operator=(const ChildStack &) = delete;
    [[nodiscard]] void *top() const { return static_cast<char *>(base_) + kSize; }

  private:
    void *base_;
};

}  // namespace sbx::support
