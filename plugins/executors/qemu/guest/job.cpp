// Running one job. The host wrote, into the job folder: `argv` and `env` (NUL-separated),
// `stdin`, `limits` ("key value" lines) and the workspace `work/`. The agent writes back
// `stdout` and `stderr` (the first output_bytes of each) and `result` ("key value" lines:
// the raw facts; the host classifies them the way the local executor does).
#include "job.hpp"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <map>
#include <vector>

#include "cgroup.hpp"
#include "file_io.hpp"

namespace sbx::guest {
namespace {

std::vector<std::string> split_nul(const std::string &text) {
    std::vector<std::string> items;
    size_t start = 0;
    while (start < text.size()) {
        const size_t end = text.find('\0', start);
        items.push_back(text.substr(start, end - start));
        if (end == std::string::npos) {
            break;
        }
        start = end + 1;
    }
    return items;
}

std::map<std::string, std::string> read_pairs(const std::string &text) {
    std::map<std::string, std::string> pairs;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) {
            end = text.size();
        }
        const std::string line = text.substr(start, end - start);
        if (const size_t space = line.find(' '); space != std::string::npos) {
            pairs[line.substr(0, space)] = line.substr(space + 1);
        }
        start = end + 1;
    }
    return pairs;
}

std::uint64_t number(const std::map<std::string, std::string> &pairs, const char *key) {
    const auto found = pairs.find(key);
    return found == pairs.end() ? 0 : std::strtoull(found->second.c_str(), nullptr, 10);
}

std::int64_t now_ns() {
    timespec now{};
    ::clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<std::int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

// One output stream of the target: the first `keep` bytes kept, the rest counted.
struct Stream {
    int fd = -1;
    std::string kept;
    std::uint64_t total = 0;
};

bool drain(Stream &stream, std::uint64_t keep) {
    char buffer[65536];
    const ssize_t got = ::read(stream.fd, buffer, sizeof buffer);
    if (got <= 0) {
        if (got < 0 && (errno == EINTR || errno == EAGAIN)) {
            return true;
        }
        ::close(stream.fd);
        stream.fd = -1;
        return false;
    }
    stream.total += static_cast<std::uint64_t>(got);
    if (stream.kept.size() < keep) {
        stream.kept.append(buffer,
                           std::min<size_t>(static_cast<size_t>(got),
                                            static_cast<size_t>(keep) - stream.kept.size()));
    }
    return true;
}

// The child side: into the cgroup, limits, stdio, workspace, exec. Reports a failed step
// as "step errno" on `report` (close-on-exec, so a successful exec reports nothing).
[[noreturn]] void become_target(const JobCgroup &cgroup, const std::string &job_dir,
                                const std::vector<std::string> &argv,
                                const std::vector<std::string> &env,
                                const std::map<std::string, std::string> &limits, int out_fd,
                                int err_fd, int report) {
    const auto fail = [report](const char *step) {
        const std::string text = std::string(step) + " " + std::to_string(errno);
        (void)!::write(report, text.data(), text.size());
        ::_exit(127);
    };
    ::setsid();
    cgroup.enter();
    // The target starts as a shell would start it: default dispositions, nothing blocked
    // (the agent's own settings must not change how it ends).
    for (int signal_number = 1; signal_number < NSIG; ++signal_number) {
        if (signal_number != SIGKILL && signal_number != SIGSTOP) {
            ::signal(signal_number, SIG_DFL);
        }
    }
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    // A /tmp of the job's own: a tmpfs in a mount namespace of its own, which goes with the
    // job's last process (the cgroup kill). Jobs side by side and one after the other never
    // see each other's files.
    std::string tmp_options = "mode=1777";
    if (const auto size = number(limits, "disk_bytes"); size > 0) {
        tmp_options += ",size=" + std::to_string(size);
    }
    if (::unshare(CLONE_NEWNS) != 0 ||
        ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        ::mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, tmp_options.c_str()) != 0) {
        fail("private-tmp");
    }
    // The agent shields itself from the OOM killer; its targets must not inherit that.
    write_file("/proc/self/oom_score_adj", "0");
    if (const auto cpu = number(limits, "cpu_time_s"); cpu > 0) {
        const rlimit limit{cpu, cpu + 1};
        ::setrlimit(RLIMIT_CPU, &limit);
    }
    if (const auto size = number(limits, "disk_bytes"); size > 0) {
        const rlimit limit{size, size};
        ::setrlimit(RLIMIT_FSIZE, &limit);
    }
    if (cgroup.path().empty()) {
        if (const auto memory = number(limits, "memory_bytes"); memory > 0) {
            const rlimit limit{memory, memory};
            ::setrlimit(RLIMIT_AS, &limit);
        }
    }
    const int in_fd = ::open((job_dir + "/stdin").c_str(), O_RDONLY | O_CLOEXEC);
    if (in_fd < 0 || ::dup2(in_fd, 0) < 0 || ::dup2(out_fd, 1) < 0 || ::dup2(err_fd, 2) < 0) {
        fail("stdio");
    }
    // The target is nobody: it cannot reach the agent's serial port, the cgroup tree, the
    // other jobs' files (the host writes them 0600) or the guest kernel's switches, so it
    // can neither forge another job's answer nor lift its own limits.
    constexpr uid_t kNobody = 65534;
    if (::setgroups(0, nullptr) != 0 || ::setresgid(kNobody, kNobody, kNobody) != 0 ||
        ::setresuid(kNobody, kNobody, kNobody) != 0 ||
        ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        fail("drop privileges");
    }
    if (::chdir((job_dir + "/work").c_str()) != 0) {
        fail("chdir");
    }
    std::vector<char *> args;
    args.reserve(argv.size() + 1);
    for (const auto &arg : argv) {
        args.push_back(const_cast<char *>(arg.c_str()));
    }
    args.push_back(nullptr);
    std::vector<char *> vars;
    vars.reserve(env.size() + 1);
    for (const auto &var : env) {
        vars.push_back(const_cast<char *>(var.c_str()));
    }
    vars.push_back(nullptr);
    ::execvpe(args[0], args.data(), vars.data());
    fail("execve");
    ::_exit(127);
}

}  // namespace

std::string run_job(const std::string &job_dir, const std::string &name) {
    const auto argv_text = read_file(job_dir + "/argv");
    const auto env_text = read_file(job_dir + "/env");
    const auto limits_text = read_file(job_dir + "/limits");
    const auto argv = split_nul(argv_text.value_or(""));
    const auto env = split_nul(env_text.value_or(""));
    const auto limits = read_pairs(limits_text.value_or(""));
    if (!argv_text || !env_text || !limits_text || argv.empty()) {
        return "job folder " + job_dir + " lacks argv, env or limits";
    }
    const std::uint64_t keep = number(limits, "output_bytes");
    const std::uint64_t timeout_ms = number(limits, "timeout_ms");

    JobCgroup cgroup(
        name,
        JobLimits{number(limits, "memory_bytes"), number(limits, "pids"),
                  std::strtod(limits.count("cpu_cores") != 0 ? limits.at("cpu_cores").c_str() : "0",
                              nullptr)});
    int out_pipe[2];
    int err_pipe[2];
    int report_pipe[2];
    if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0 ||
        ::pipe2(report_pipe, O_CLOEXEC) != 0) {
        return std::string("pipe: ") + std::strerror(errno);
    }
    const std::int64_t started = now_ns();
    const pid_t child = ::fork();
    if (child < 0) {
        return std::string("fork: ") + std::strerror(errno);
    }
    if (child == 0) {
        become_target(cgroup, job_dir, argv, env, limits, out_pipe[1], err_pipe[1], report_pipe[1]);
    }
    ::close(out_pipe[1]);
    ::close(err_pipe[1]);
    ::close(report_pipe[1]);
    const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, child, 0));

    Stream out{out_pipe[0], {}, 0};
    Stream err{err_pipe[0], {}, 0};
    bool timed_out = false;
    bool exited = false;
    std::int64_t drain_until = 0;
    constexpr std::int64_t kDrainGraceNs = 2000000000;
    const std::int64_t deadline =
        timeout_ms > 0 ? started + static_cast<std::int64_t>(timeout_ms) * 1000000 : 0;
    // Until the target exits: its output, its exit, its deadline. Afterwards what is left in
    // the pipes, once the rest of its group is killed (a background child may hold them).
    while (!exited || out.fd >= 0 || err.fd >= 0) {
        pollfd fds[3] = {
            {out.fd, POLLIN, 0}, {err.fd, POLLIN, 0}, {exited ? -1 : pidfd, POLLIN, 0}};
        int wait_ms = -1;
        if (exited) {
            // Without a cgroup a daemonized grandchild may hold the pipes for ever.
            const std::int64_t left = drain_until - now_ns();
            if (left <= 0) {
                break;
            }
            wait_ms = static_cast<int>((left + 999999) / 1000000);
        } else if (deadline != 0) {
            const std::int64_t left = deadline - now_ns();
            wait_ms = left <= 0 ? 0 : static_cast<int>((left + 999999) / 1000000);
        }
        const int ready = ::poll(fds, 3, wait_ms);
        if (ready < 0 && errno != EINTR) {
            break;
        }
        if (fds[0].revents != 0) {
            drain(out, keep);
        }
        if (fds[1].revents != 0) {
            drain(err, keep);
        }
        if (!exited && (fds[2].revents != 0 || pidfd < 0)) {
            exited = true;
            drain_until = now_ns() + kDrainGraceNs;
            cgroup.kill_all();
            ::kill(-child, SIGKILL);
        }
        if (!exited && deadline != 0 && now_ns() >= deadline) {
            timed_out = true;
            cgroup.kill_all();
            ::kill(-child, SIGKILL);
            ::kill(child, SIGKILL);
        }
    }
    for (Stream *stream : {&out, &err}) {
        if (stream->fd >= 0) {
            ::close(stream->fd);
        }
    }
    int status = 0;
    rusage usage{};
    ::wait4(child, &status, 0, &usage);
    const std::int64_t ended = now_ns();
    if (pidfd >= 0) {
        ::close(pidfd);
    }
    char report[64] = {};
    const ssize_t reported = ::read(report_pipe[0], report, sizeof report - 1);
    ::close(report_pipe[0]);
    // Orphans the target left are children of the agent (PID 1) now: reap them.
    while (::waitpid(-1, nullptr, WNOHANG) > 0) {
    }

    const JobCounters counted = cgroup.counters();
    const std::uint64_t user_us =
        !cgroup.path().empty() ? counted.user_usec
                               : static_cast<std::uint64_t>(usage.ru_utime.tv_sec) * 1000000 +
                                     static_cast<std::uint64_t>(usage.ru_utime.tv_usec);
    const std::uint64_t sys_us = !cgroup.path().empty()
                                     ? counted.system_usec
                                     : static_cast<std::uint64_t>(usage.ru_stime.tv_sec) * 1000000 +
                                           static_cast<std::uint64_t>(usage.ru_stime.tv_usec);
    std::string result;
    const auto put = [&result](const char *key, const std::string &value) {
        result += std::string(key) + " " + value + "\n";
    };
    put("wait_status", std::to_string(status));
    put("wall_ns", std::to_string(ended - started));
    put("user_us", std::to_string(user_us));
    put("sys_us", std::to_string(sys_us));
    put("max_rss_kb", std::to_string(usage.ru_maxrss));
    put("stdout_bytes", std::to_string(out.total));
    put("stderr_bytes", std::to_string(err.total));
    put("timed_out", timed_out ? "1" : "0");
    put("oom_kills", std::to_string(counted.oom_kills));
    put("pids_refused", std::to_string(counted.pids_refused));
    put("cpu_throttled", counted.cpu_throttled ? "1" : "0");
    put("cgroup", cgroup.path().empty() ? "0" : "1");
    if (reported > 0) {
        put("spawn_error", std::string(report, static_cast<size_t>(reported)));
    }
    if (!write_file(job_dir + "/stdout", out.kept, true) ||
        !write_file(job_dir + "/stderr", err.kept, true) ||
        !write_file(job_dir + "/result", result, true)) {
        return "cannot write the results into " + job_dir;
    }
    return "";
}

}  // namespace sbx::guest
