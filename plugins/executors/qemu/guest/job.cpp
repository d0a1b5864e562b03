// Running one job. The host wrote, into the job folder: `argv` and `env` (NUL-separated),
// `stdin`, `limits` ("key value" lines) and the workspace `work/`. The agent writes back
// `stdout` and `stderr` (the first output_bytes of each) and `result` ("key value" lines:
// the raw facts; the host classifies them the way the local executor does).
#include "job.hpp"

#include <sbx/unique_fd.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "cgroup.hpp"
#include "file_io.hpp"
#include "job_request.hpp"
#include "target_child.hpp"

namespace sbx::guest {
namespace {

// After the target exits, how long a process it left behind may keep its pipes open.
constexpr std::int64_t kDrainGraceNs = 2000000000;

std::int64_t now_ns() {
    timespec now{};
    ::clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<std::int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

int milliseconds_until(std::int64_t deadline_ns) {
    const std::int64_t left = deadline_ns - now_ns();
    return left <= 0 ? 0 : static_cast<int>((left + 999999) / 1000000);
}

// One output stream of the target: the first `keep` bytes kept, the rest counted.
struct Stream {
    UniqueFd fd;
    std::string kept;
    std::uint64_t total = 0;

    // Reads once; at the end of the stream or an error the pipe is closed.
    void drain(std::uint64_t keep) {
        char buffer[65536];
        const ssize_t got = ::read(fd.get(), buffer, sizeof buffer);
        if (got <= 0) {
            if (got < 0 && (errno == EINTR || errno == EAGAIN)) {
                return;
            }
            fd.reset();
            return;
        }
        total += static_cast<std::uint64_t>(got);
        if (kept.size() < keep) {
            kept.append(buffer, std::min<size_t>(static_cast<size_t>(got),
                                                 static_cast<size_t>(keep) - kept.size()));
        }
    }
};

struct Pipe {
    UniqueFd read_end;
    UniqueFd write_end;
};

bool make_pipe(Pipe &pipe) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        return false;
    }
    pipe.read_end.reset(fds[0]);
    pipe.write_end.reset(fds[1]);
    return true;
}

struct Supervised {
    bool timed_out = false;
    int wait_status = 0;
    rusage usage{};
};

// Until the target exits: its output, its exit, its deadline. Afterwards what is left in
// the pipes, once the rest of its group is killed (a background child may hold them).
// Then it reaps the target.
Supervised supervise(pid_t child, const JobCgroup &cgroup, Stream &out, Stream &err,
                     std::uint64_t keep, std::int64_t deadline) {
    Supervised outcome;
    const UniqueFd pidfd(static_cast<int>(::syscall(SYS_pidfd_open, child, 0)));
    bool exited = false;
    std::int64_t drain_until = 0;
    const auto kill_group = [&] {
        cgroup.kill_all();
        ::kill(-child, SIGKILL);
    };
    while (!exited || out.fd || err.fd) {
        pollfd fds[3] = {{out.fd.get(), POLLIN, 0},
                         {err.fd.get(), POLLIN, 0},
                         {exited ? -1 : pidfd.get(), POLLIN, 0}};
        int wait_ms = -1;
        if (exited) {
            // Without a cgroup a daemonized grandchild may hold the pipes for ever.
            if (now_ns() >= drain_until) {
                break;
            }
            wait_ms = milliseconds_until(drain_until);
        } else if (deadline != 0) {
            wait_ms = milliseconds_until(deadline);
        }
        if (::poll(fds, 3, wait_ms) < 0 && errno != EINTR) {
            break;
        }
        if (fds[0].revents != 0) {
            out.drain(keep);
        }
        if (fds[1].revents != 0) {
            err.drain(keep);
        }
        if (!exited && (fds[2].revents != 0 || !pidfd)) {
            exited = true;
            drain_until = now_ns() + kDrainGraceNs;
            kill_group();
        }
        if (!exited && deadline != 0 && now_ns() >= deadline) {
            outcome.timed_out = true;
            kill_group();
            ::kill(child, SIGKILL);
        }
    }
    out.fd.reset();
    err.fd.reset();
    ::wait4(child, &outcome.wait_status, 0, &outcome.usage);
    return outcome;
}

std::uint64_t microseconds(const timeval &time) {
    return static_cast<std::uint64_t>(time.tv_sec) * 1000000 +
           static_cast<std::uint64_t>(time.tv_usec);
}

// The `result` file: the raw facts, "key value" per line.
std::string result_text(const Supervised &outcome, std::int64_t wall_ns, const Stream &out,
                        const Stream &err, const JobCgroup &cgroup,
                        const std::string &spawn_error) {
    const bool has_cgroup = !cgroup.path().empty();
    const JobCounters counted = cgroup.counters();
    std::string result;
    const auto put = [&result](const char *key, const std::string &value) {
        result += std::string(key) + " " + value + "\n";
    };
    put("wait_status", std::to_string(outcome.wait_status));
    put("wall_ns", std::to_string(wall_ns));
    put("user_us",
        std::to_string(has_cgroup ? counted.user_usec : microseconds(outcome.usage.ru_utime)));
    put("sys_us",
        std::to_string(has_cgroup ? counted.system_usec : microseconds(outcome.usage.ru_stime)));
    put("max_rss_kb", std::to_string(outcome.usage.ru_maxrss));
    put("stdout_bytes", std::to_string(out.total));
    put("stderr_bytes", std::to_string(err.total));
    put("timed_out", outcome.timed_out ? "1" : "0");
    put("oom_kills", std::to_string(counted.oom_kills));
    put("pids_refused", std::to_string(counted.pids_refused));
    put("cpu_throttled", counted.cpu_throttled ? "1" : "0");
    put("cgroup", has_cgroup ? "1" : "0");
    if (!spawn_error.empty()) {
        put("spawn_error", spawn_error);
    }
    return result;
}

}  // namespace

std::string run_job(const std::string &job_dir, const std::string &name) {
    const auto request = read_job_request(job_dir);
    if (!request) {
        return "job folder " + job_dir + " lacks argv, env or limits";
    }
    const std::uint64_t keep = request->limit("output_bytes");
    const std::uint64_t timeout_ms = request->limit("timeout_ms");
    JobCgroup cgroup(name, JobLimits{request->limit("memory_bytes"), request->limit("pids"),
                                     request->decimal_limit("cpu_cores")});
    Pipe out_pipe;
    Pipe err_pipe;
    Pipe report_pipe;
    if (!make_pipe(out_pipe) || !make_pipe(err_pipe) || !make_pipe(report_pipe)) {
        return std::string("pipe: ") + std::strerror(errno);
    }
    const std::int64_t started = now_ns();
    const pid_t child = ::fork();
    if (child < 0) {
        return std::string("fork: ") + std::strerror(errno);
    }
    if (child == 0) {
        become_target(
            cgroup, job_dir, *request,
            {out_pipe.write_end.get(), err_pipe.write_end.get(), report_pipe.write_end.get()});
    }
    out_pipe.write_end.reset();
    err_pipe.write_end.reset();
    report_pipe.write_end.reset();

    Stream out{std::move(out_pipe.read_end), {}, 0};
    Stream err{std::move(err_pipe.read_end), {}, 0};
    const std::int64_t deadline =
        timeout_ms > 0 ? started + static_cast<std::int64_t>(timeout_ms) * 1000000 : 0;
    const Supervised outcome = supervise(child, cgroup, out, err, keep, deadline);
    const std::int64_t ended = now_ns();
    char report[64] = {};
    const ssize_t reported = ::read(report_pipe.read_end.get(), report, sizeof report - 1);
    // Orphans the target left are children of the agent (PID 1) now: reap them.
    while (::waitpid(-1, nullptr, WNOHANG) > 0) {
    }

    const std::string spawn_error =
        reported > 0 ? std::string(report, static_cast<size_t>(reported)) : "";
    const std::string result = result_text(outcome, ended - started, out, err, cgroup, spawn_error);
    if (!write_file(job_dir + "/stdout", out.kept, true) ||
        !write_file(job_dir + "/stderr", err.kept, true) ||
        !write_file(job_dir + "/result", result, true)) {
        return "cannot write the results into " + job_dir;
    }
    return "";
}

}  // namespace sbx::guest
