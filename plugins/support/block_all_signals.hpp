// BlockAllSignals: every signal blocked in this thread while it lives. Around a clone() whose
// child shares our memory: a handler must not run in the child, and the run's init keeps
// them all blocked to take them with sigwaitinfo. The raw system call, as in glibc's
// posix_spawn, because sigfillset/pthread_sigmask leave out glibc's internal signals.
#pragma once

#include <sys/syscall.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>

namespace sbx::support {

class BlockAllSignals {
  public:
    BlockAllSignals() {
        const std::uint64_t all = ~std::uint64_t{0};
        ::syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, &saved_, sizeof(saved_));
    }
    ~BlockAllSignals() {
        ::syscall(SYS_rt_sigprocmask, SIG_SETMASK, &saved_, nullptr, sizeof(saved_));
    }
    BlockAllSignals(const BlockAllSignals &) = delete;
    BlockAllSignals &operator=(const BlockAllSignals &) = delete;

  private:
    std::uint64_t saved_ = 0;  // the kernel's sigset_t: one bit per signal 1..64
};

}  // namespace sbx::support
