// Creating the target's stdin memfd and output pipes. A memfd rather than a pipe for stdin:
// the whole text is there before the target starts, whatever its size, and it reads EOF after.
#include "target_stdio.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>

#include "support/sys_error.hpp"

namespace sbx::local {
namespace {

// Moves `fd` above the standard streams (a host that closed 0..2 gets them back from pipe()).
UniqueFd above_stdio(int fd, const char *what) {
    UniqueFd owned(fd);
    if (fd >= 3) {
        return owned;
    }
    UniqueFd moved(::fcntl(fd, F_DUPFD_CLOEXEC, 3));
    if (!moved.valid()) {
        support::throw_system_error(std::string("cannot move the ") + what + " fd above 2", errno);
    }
    return moved;
}

void make_pipe(UniqueFd &read_end, UniqueFd &write_end, const char *what) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        support::throw_system_error(std::string("cannot create the ") + what + " pipe", errno);
    }
    read_end = above_stdio(fds[0], what);
    write_end = above_stdio(fds[1], what);
    const int flags = ::fcntl(read_end.get(), F_GETFL);
    if (flags < 0 || ::fcntl(read_end.get(), F_SETFL, flags | O_NONBLOCK) != 0) {
        support::throw_system_error(std::string("cannot make the ") + what + " pipe non-blocking",
                                    errno);
    }
}

UniqueFd make_stdin(const std::string &text) {
    const int created = ::memfd_create("sbx-stdin", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (created < 0) {
        support::throw_system_error("cannot create the stdin memfd", errno);
    }
    UniqueFd file = above_stdio(created, "stdin");
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t written = ::write(file.get(), text.data() + done, text.size() - done);
        if (written < 0 && errno != EINTR) {
            support::throw_system_error("cannot write stdin into its memfd", errno);
        }
        done += written > 0 ? static_cast<std::size_t>(written) : 0;
    }
    // Sealed: the target can read its stdin but not change what a later reader of the same
    // file would see. Best effort: sealing is not needed for correctness.
    (void)::fcntl(file.get(), F_ADD_SEALS,
                  F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
    if (::lseek(file.get(), 0, SEEK_SET) != 0) {
        support::throw_system_error("cannot rewind the stdin memfd", errno);
    }
    return file;
}

}  // namespace

TargetStdio make_target_stdio(const std::string &stdin_text) {
    TargetStdio stdio;
    stdio.stdin_file = make_stdin(stdin_text);
    make_pipe(stdio.stdout_read, stdio.stdout_write, "stdout");
    make_pipe(stdio.stderr_read, stdio.stderr_write, "stderr");
    return stdio;
}

}  // namespace sbx::local
