// Bounded reading of input files, with errors that name the path.
#include "util/input_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "util/errors.hpp"

namespace sbx {
namespace {

[[noreturn]] void refuse(const std::filesystem::path &path, const std::string &what,
                         const std::string &reason, const std::string &hint) {
    throw InputError(path.string() + ": cannot read " + what + " (" + reason + "); " + hint);
}

// Closes the descriptor however the read ends.
struct Descriptor {
    int fd;
    ~Descriptor() {
        if (fd >= 0) {
            close(fd);
        }
    }
};

}  // namespace

std::string read_input_file(const std::filesystem::path &path, const std::string &what,
                            const std::string &hint, size_t limit) {
    std::error_code ignored;
    if (std::filesystem::is_directory(path, ignored)) {
        refuse(path, what, "it is a directory", hint);
    }
    const Descriptor file{open(path.c_str(), O_RDONLY | O_CLOEXEC)};
    if (file.fd < 0) {
        refuse(path, what, std::strerror(errno), hint);
    }
    std::string text;
    char buffer[65536];
    for (;;) {
        const ssize_t got = read(file.fd, buffer, sizeof buffer);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0) {
            refuse(path, what, std::strerror(errno), hint);
        }
        if (got == 0) {
            return text;
        }
        if (text.size() + static_cast<size_t>(got) > limit) {
            refuse(path, what, "it holds more than " + std::to_string(limit) + " bytes",
                   "give a smaller file");
        }
        text.append(buffer, static_cast<size_t>(got));
    }
}

}  // namespace sbx
