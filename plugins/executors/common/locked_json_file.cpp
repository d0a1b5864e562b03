// flock + rename: the lock serializes writers, the rename makes each write atomic.
#include "locked_json_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace sbx::executors {
namespace {

// An exclusive flock held for the object's lifetime.
class FileLock {
  public:
    explicit FileLock(const std::string &path)
        : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
        if (fd_ >= 0) {
            while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
            }
        }
    }
    ~FileLock() {
        if (fd_ >= 0) {
            ::close(fd_);  // releases the lock
        }
    }
    FileLock(const FileLock &) = delete;
    FileLock &operator=(const FileLock &) = delete;

  private:
    int fd_;
};

}  // namespace

nlohmann::json read_json_file(const std::string &path) {
    std::ifstream in(path);
    if (!in) {
        return nlohmann::json::object();
    }
    auto parsed = nlohmann::json::parse(in, nullptr, false);
    return parsed.is_object() ? parsed : nlohmann::json::object();
}

nlohmann::json update_json_file(const std::string &path,
                                const std::function<void(nlohmann::json &)> &change) {
    std::error_code ignored;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ignored);
    const FileLock lock(path + ".lock");
    nlohmann::json object = read_json_file(path);
    change(object);
    const std::string temporary = path + ".tmp." + std::to_string(::getpid());
    {
        std::ofstream out(temporary, std::ios::trunc);
        out << object.dump(2) << '\n';
    }
    std::filesystem::rename(temporary, path, ignored);
    return object;
}

}  // namespace sbx::executors
