// flock + rename: the lock serializes writers, the rename makes each write atomic.
#include "locked_json_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace sbx::support {
namespace {

// An exclusive flock held for the object's lifetime.
class FileLock {
  public:
    explicit FileLock(const std::string &path)
        : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600)) {
        int locked = -1;
        while (fd_ >= 0 && (locked = ::flock(fd_, LOCK_EX)) != 0 && errno == EINTR) {
        }
        if (locked != 0) {
            const std::string why = std::strerror(errno);
            if (fd_ >= 0) {
                ::close(fd_);
            }
            throw std::runtime_error("cannot lock " + path + ": " + why);
        }
    }
    ~FileLock() { ::close(fd_); }  // releases the lock
    FileLock(const FileLock &) = delete;
    FileLock &operator=(const FileLock &) = delete;

  private:
    int fd_;
};

// The file's JSON, or a discarded value when it does not parse (absent or empty: {}).
nlohmann::json read_json_text(const std::string &path) {
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
        return nlohmann::json::object();
    }
    return nlohmann::json::parse(text, nullptr, false);
}

}  // namespace

nlohmann::json read_json_file(const std::string &path) {
    auto parsed = read_json_text(path);
    return parsed.is_object() ? parsed : nlohmann::json::object();
}

nlohmann::json update_json_file(const std::string &path,
                                const std::function<void(nlohmann::json &)> &change) {
    std::error_code ignored;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ignored);
    const FileLock lock(path + ".lock");
    // A file that is there but is not a JSON object is kept aside, never overwritten: its
    // records may still name things to clean up.
    nlohmann::json object = read_json_text(path);
    if (!object.is_object()) {
        std::filesystem::rename(path, path + ".unreadable", ignored);
        object = nlohmann::json::object();
    }
    change(object);
    const std::string temporary = path + ".tmp." + std::to_string(::getpid());
    {
        std::ofstream out(temporary, std::ios::trunc);
        out << object.dump(2) << '\n';
        if (!out.flush()) {
            std::filesystem::remove(temporary, ignored);
            throw std::runtime_error("cannot write " + temporary + " (is the disk full?); " + path +
                                     " is left as it was");
        }
    }
    std::filesystem::rename(temporary, path, ignored);
    return object;
}

}  // namespace sbx::support
