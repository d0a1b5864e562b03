// cgroup v2 in the guest: the agent mounted the tree at /sys/fs/cgroup and enabled the
// memory, pids and cpu controllers for its children.
#include "cgroup.hpp"

#include <sbx/unique_fd.hpp>

#include "file_io.hpp"

#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace sbx::guest {
namespace {

constexpr const char *kRoot = "/sys/fs/cgroup";

// The number after `key ` in a flat-keyed file such as memory.events; 0 when absent.
std::uint64_t keyed(const std::string &text, const std::string &key) {
    size_t at = 0;
    while ((at = text.find(key + ' ', at)) != std::string::npos) {
        if (at == 0 || text[at - 1] == '\n') {
            return std::strtoull(text.c_str() + at + key.size() + 1, nullptr, 10);
        }
        at += key.size();
    }
    return 0;
}

}  // namespace

JobCgroup::JobCgroup(const std::string &name, const JobLimits &limits) {
    const std::string path = std::string(kRoot) + "/" + name;
    if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) {
        return;
    }
    path_ = path;
    if (limits.memory_bytes > 0) {
        write_file(path_ + "/memory.max", std::to_string(limits.memory_bytes));
        write_file(path_ + "/memory.swap.max", "0");
    }
    if (limits.pids > 0) {
        write_file(path_ + "/pids.max", std::to_string(limits.pids));
    }
    if (limits.cpu_cores > 0) {
        constexpr long kPeriodUs = 100000;
        const auto quota = static_cast<long>(limits.cpu_cores * kPeriodUs);
        write_file(path_ + "/cpu.max",
                   std::to_string(quota < 1000 ? 1000 : quota) + " " + std::to_string(kPeriodUs));
    }
}

JobCgroup::~JobCgroup() {
    if (path_.empty()) {
        return;
    }
    kill_all();
    // rmdir fails while the killed processes are still being torn down; give them a moment.
    for (int attempt = 0; attempt < 200 && ::rmdir(path_.c_str()) != 0 && errno == EBUSY;
         ++attempt) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

pid_t JobCgroup::fork_into() const {
    if (!path_.empty()) {
        const UniqueFd dir(::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
        if (dir) {
            clone_args args{};
            args.flags = CLONE_INTO_CGROUP;
            args.exit_signal = SIGCHLD;
            args.cgroup = static_cast<std::uint64_t>(dir.get());
            const long child = ::syscall(SYS_clone3, &args, sizeof args);
            if (child >= 0 || (errno != ENOSYS && errno != EINVAL && errno != E2BIG)) {
                return static_cast<pid_t>(child);
            }
        }
    }
    const pid_t child = ::fork();
    if (child == 0 && !path_.empty()) {
        write_file(path_ + "/cgroup.procs", "0");
    }
    return child;
}

void JobCgroup::kill_all() const {
    if (path_.empty() || write_file(path_ + "/cgroup.kill", "1")) {
        return;
    }
    // Kernels before 5.14 have no cgroup.kill: SIGKILL the members until none is left (a
    // fork between the read and the kill shows up in the next read).
    for (int round = 0; round < 1000; ++round) {
        const std::string members = read_file(path_ + "/cgroup.procs").value_or("");
        if (members.find_first_of("0123456789") == std::string::npos) {
            return;
        }
        for (size_t at = 0; at < members.size();) {
            const size_t end = members.find('\n', at);
            const long pid = std::strtol(members.c_str() + at, nullptr, 10);
            if (pid > 0) {
                ::kill(static_cast<pid_t>(pid), SIGKILL);
            }
            at = end == std::string::npos ? members.size() : end + 1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

JobCounters JobCgroup::counters() const {
    JobCounters counters;
    if (path_.empty()) {
        return counters;
    }
    counters.oom_kills = keyed(read_file(path_ + "/memory.events").value_or(""), "oom_kill");
    counters.pids_refused = keyed(read_file(path_ + "/pids.events").value_or(""), "max");
    const std::string cpu = read_file(path_ + "/cpu.stat").value_or("");
    counters.user_usec = keyed(cpu, "user_usec");
    counters.system_usec = keyed(cpu, "system_usec");
    counters.cpu_throttled = keyed(cpu, "nr_throttled") > 0;
    counters.peak_bytes =
        std::strtoull(read_file(path_ + "/memory.peak").value_or("").c_str(), nullptr, 10);
    return counters;
}

}  // namespace sbx::guest
