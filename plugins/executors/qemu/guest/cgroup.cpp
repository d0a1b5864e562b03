// cgroup v2 in the guest: the agent mounted the tree at /sys/fs/cgroup and enabled the
// memory, pids and cpu controllers for its children. What the kernel counted is read by
// plugins/support/cgroup_v2_files, as the executors of the host read it.
#include "cgroup.hpp"

#include <sbx/unique_fd.hpp>

#include "file_io.hpp"
#include "support/cgroup_v2_files.hpp"

#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <thread>
#include <vector>

namespace sbx::guest {
JobCgroup::JobCgroup(const std::string &name, const JobLimits &limits) {
    const std::string path = std::string(support::kCgroupRoot) + "/" + name;
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
        const auto members = support::cgroup_members(path_).value_or(std::vector<pid_t>{});
        if (members.empty()) {
            return;
        }
        for (const pid_t pid : members) {
            ::kill(pid, SIGKILL);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

JobCounters JobCgroup::counters() const {
    JobCounters counters;
    if (path_.empty()) {
        return counters;
    }
    const support::CgroupV2Counters read = support::read_cgroup_v2_counters(path_);
    counters.oom_kills = read.oom_kills.value_or(0);
    counters.pids_refused = read.pids_refused.value_or(0);
    counters.user_usec = read.cpu_user_usec.value_or(0);
    counters.system_usec = read.cpu_system_usec.value_or(0);
    counters.cpu_throttled = read.cpu_throttled_periods.value_or(0) > 0;
    counters.peak_bytes = read.memory_peak_bytes.value_or(0);
    return counters;
}

}  // namespace sbx::guest
