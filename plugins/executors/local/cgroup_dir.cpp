// Creating, configuring and removing one cgroup folder. Both versions share this: they only
// differ in the names of the files they write and read.
#include "cgroup_dir.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "support/sys_error.hpp"

namespace sbx::local {

bool CgroupDir::make_folder(const std::string &path) {
    if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) {
        host::log(SBX_LOG_DEBUG,
                  "cannot create cgroup " + path + ": " + support::errno_text(errno));
        return false;
    }
    return true;
}

std::unique_ptr<CgroupDir> CgroupDir::create(const std::string &parent, const std::string &name) {
    if (!make_folder(parent)) {
        return nullptr;
    }
    const std::string path = parent + "/" + name;
    if (::mkdir(path.c_str(), 0755) != 0) {  // EEXIST too: the name must be ours alone
        host::log(SBX_LOG_DEBUG,
                  "cannot create cgroup " + path + ": " + support::errno_text(errno));
        return nullptr;
    }
    return std::unique_ptr<CgroupDir>(new CgroupDir(path));
}

CgroupDir::~CgroupDir() {
    // In a PID namespace the run leaves nothing behind; in process-group mode an escaped
    // descendant may still be here. The folder cannot go while anything is inside.
    for (int attempt = 0; attempt < 100; ++attempt) {
        kill_members();
        if (::rmdir(path_.c_str()) == 0 || errno == ENOENT) {
            return;
        }
        if (errno != EBUSY) {
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));  // killed tasks exiting
    }
    host::log(SBX_LOG_WARN, "cannot remove cgroup " + path_ + ": " + support::errno_text(errno) +
                                "; `sandbox-runner purge-stale` removes it later");
}

bool CgroupDir::has(const char *file) const {
    return ::access((path_ + "/" + file).c_str(), F_OK) == 0;
}

bool CgroupDir::write(const char *file, const std::string &value) const {
    return write_file(path_ + "/" + file, value);
}

std::optional<std::string> CgroupDir::read(const char *file) const {
    return read_file(path_ + "/" + file);
}

bool CgroupDir::write_file(const std::string &path, const std::string &value) {
    // One write() call: cgroup files take a value per write, not a stream.
    UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CLOEXEC));
    if (!fd.valid() ||
        ::write(fd.get(), value.data(), value.size()) != static_cast<ssize_t>(value.size())) {
        host::log(SBX_LOG_DEBUG,
                  "cannot write '" + value + "' to " + path + ": " + support::errno_text(errno));
        return false;
    }
    return true;
}

std::optional<std::string> CgroupDir::read_file(const std::string &path) {
    std::ifstream in(path);
    if (!in) {
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

UniqueFd CgroupDir::open_procs() const {
    return UniqueFd(::open((path_ + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC));
}

UniqueFd CgroupDir::open_folder() const {
    return UniqueFd(::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
}

void CgroupDir::kill_members() const {
    const std::optional<std::string> members = read("cgroup.procs");
    if (!members) {
        return;
    }
    std::istringstream lines(*members);
    long pid = 0;
    while (lines >> pid) {
        if (pid > 0) {
            ::kill(static_cast<pid_t>(pid), SIGKILL);
        }
    }
}

std::uint64_t keyed_counter(std::string_view text, std::string_view key) {
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        const std::string_view line = text.substr(at, end - at);
        at = end + 1;
        if (line.size() > key.size() && line.substr(0, key.size()) == key &&
            line[key.size()] == ' ') {
            try {
                return std::stoull(std::string(line.substr(key.size() + 1)));
            } catch (const std::exception &) {
                return 0;
            }
        }
    }
    return 0;
}

bool writable_folder(const std::string &folder) {
    struct stat info {};
    return ::stat(folder.c_str(), &info) == 0 && S_ISDIR(info.st_mode) &&
           ::access(folder.c_str(), W_OK) == 0;
}

}  // namespace sbx::local
