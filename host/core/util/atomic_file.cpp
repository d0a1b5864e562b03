// Write-then-rename. Rationale: the JSON exports are read by dashboards and CI jobs while
// a matrix may be rewriting them, and a host killed mid-write must leave the old file.
#include "util/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "util/errors.hpp"

namespace sbx {

void write_file_atomically(const std::filesystem::path &path, const std::string &content) {
    const auto fail = [&](const std::string &what) {
        throw EnvironmentError("cannot write " + path.string() + ": " + what);
    };
    std::error_code ec;
    if (path.has_parent_path()) {
        std::filesystem::create_directories(path.parent_path(), ec);
        if (ec) {
            fail(ec.message());
        }
    }
    std::string temp = path.string() + ".tmp-XXXXXX";
    const int fd = mkstemp(temp.data());
    if (fd < 0) {
        fail(std::strerror(errno));
    }
    size_t written = 0;
    while (written < content.size()) {
        const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            const std::string why = std::strerror(errno);
            ::close(fd);
            ::unlink(temp.c_str());
            fail(why);
        }
        written += static_cast<size_t>(n);
    }
    // mkstemp creates 0600; exports are meant to be read by other tools and users.
    ::fchmod(fd, 0644);
    if (::close(fd) != 0 || std::rename(temp.c_str(), path.c_str()) != 0) {
        const std::string why = std::strerror(errno);
        ::unlink(temp.c_str());
        fail(why);
    }
}

}  // namespace sbx
