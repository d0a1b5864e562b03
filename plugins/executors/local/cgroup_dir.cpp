// Creating, configuring and removing one cgroup folder. Both versions share this: they only
// differ in the names of the files they write and read.
#include "cgroup_dir.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <thread>
#include <vector>

#include "support/cgroup_v2_files.hpp"
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

UniqueFd CgroupDir::open_procs() const {
    return UniqueFd(::open((path_ + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC));
}

UniqueFd CgroupDir::open_folder() const {
    return UniqueFd(::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
}

void CgroupDir::kill_members() const {
    for (const pid_t pid : support::cgroup_members(path_).value_or(std::vector<pid_t>{})) {
        ::kill(pid, SIGKILL);
    }
}

bool writable_folder(const std::string &folder) {
    struct stat info {};
    return ::stat(folder.c_str(), &info) == 0 && S_ISDIR(info.st_mode) &&
           ::access(folder.c_str(), W_OK) == 0;
}

}  // namespace sbx::local
