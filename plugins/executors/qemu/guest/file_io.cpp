// Plain POSIX calls: the agent is static and small, and knobs want exactly one write(2).
#include "file_io.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace sbx::guest {

std::optional<std::string> read_file(const std::string &path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return std::nullopt;
    }
    std::string text;
    char buffer[65536];
    ssize_t got = 0;
    while ((got = ::read(fd, buffer, sizeof buffer)) > 0 || (got < 0 && errno == EINTR)) {
        if (got > 0) {
            text.append(buffer, static_cast<size_t>(got));
        }
    }
    ::close(fd);
    if (got < 0) {
        return std::nullopt;
    }
    return text;
}

bool write_all_at(int fd, const std::string &text, std::uint64_t offset) {
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t wrote =
            ::pwrite(fd, text.data() + done, text.size() - done, static_cast<off_t>(offset + done));
        if (wrote < 0 && errno == EINTR) {
            continue;
        }
        if (wrote <= 0) {
            return false;
        }
        done += static_cast<size_t>(wrote);
    }
    return true;
}

bool write_file(const std::string &path, const std::string &text, bool create) {
    const int flags = O_WRONLY | O_CLOEXEC | (create ? O_CREAT | O_TRUNC : 0);
    const int fd = ::open(path.c_str(), flags, 0644);
    if (fd < 0) {
        return false;
    }
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t wrote = ::write(fd, text.data() + done, text.size() - done);
        if (wrote <= 0) {
            ::close(fd);
            return false;
        }
        done += static_cast<size_t>(wrote);
    }
    return ::close(fd) == 0;
}

}  // namespace sbx::guest
