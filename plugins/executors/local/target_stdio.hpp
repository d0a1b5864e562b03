// The target's three standard streams: stdin is a sealed memfd holding the spec's text (no
// writer thread, no pipe-buffer deadlock), stdout and stderr are pipes the parent drains.
#pragma once

#include <string>

#include <sbx/unique_fd.hpp>

namespace sbx::local {

// Every fd is >= 3 and close-on-exec, so the child's dup2() onto 0..2 never clobbers another
// of them and no concurrent spawn in another thread inherits one.
struct TargetStdio {
    UniqueFd stdin_file;    // child side: dup2'ed to 0
    UniqueFd stdout_write;  // child side: dup2'ed to 1
    UniqueFd stderr_write;  // child side: dup2'ed to 2
    UniqueFd stdout_read;   // parent side, non-blocking
    UniqueFd stderr_read;   // parent side, non-blocking

    // The parent must drop its copies of the write ends once the child has them, or the
    // pipes never reach EOF.
    void close_child_ends() {
        stdin_file.reset();
        stdout_write.reset();
        stderr_write.reset();
    }
};

TargetStdio make_target_stdio(const std::string &stdin_text);

}  // namespace sbx::local
