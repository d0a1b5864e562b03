// Running one job. The host wrote, into the job folder, the `job` file (its request: argv,
// env, limits, stdin; job_request.hpp) and the workspace `work/`. The agent writes the
// result into `job` after the request: "key value" lines (the raw facts; the host
// classifies them the way the local executor does), an empty line, then the first
// output_bytes of stdout and of stderr. One read and one write over 9p, on files the agent
// keeps open: every 9p walk, open, read, write and close is a round trip to QEMU, each
// slow under emulation (0.6 to 0.9 ms here).
#include "job.hpp"

#include <sbx/unique_fd.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
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
    std::int64_t exited_ns = 0;  // when its end was seen
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
            outcome.exited_ns = now_ns();
            drain_until = outcome.exited_ns + kDrainGraceNs;
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
    if (outcome.exited_ns == 0) {
        outcome.exited_ns = now_ns();
    }
    return outcome;
}

std::uint64_t microseconds(const timeval &time) {
    return static_cast<std::uint64_t>(time.tv_sec) * 1000000 +
           static_cast<std::uint64_t>(time.tv_usec);
}

// The target's stdin as the local executor gives it: a sealed memfd, read to EOF.
UniqueFd make_stdin(const std::string &text) {
    UniqueFd file(::memfd_create("sbx-stdin", MFD_CLOEXEC | MFD_ALLOW_SEALING));
    if (!file) {
        return file;
    }
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t wrote = ::write(file.get(), text.data() + done, text.size() - done);
        if (wrote < 0 && errno == EINTR) {
            continue;
        }
        if (wrote <= 0) {
            return UniqueFd();
        }
        done += static_cast<std::size_t>(wrote);
    }
    (void)::fcntl(file.get(), F_ADD_SEALS,
                  F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
    if (::lseek(file.get(), 0, SEEK_SET) != 0) {
        return UniqueFd();
    }
    return file;
}

// The `result` file's head: the raw facts, "key value" per line.
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
    put("stdout_kept", std::to_string(out.kept.size()));
    put("stderr_kept", std::to_string(err.kept.size()));
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

std::string open_job_folder(int jobs_fd, const std::string &id, JobFolder &folder) {
    // O_PATH: walks, no opens in QEMU; the folder itself is needed only to reach the two.
    const UniqueFd dir(
        ::openat(jobs_fd, id.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!dir) {
        return "cannot open the job folder jobs/" + id + ": " + std::strerror(errno);
    }
    folder.job_file.reset(::openat(dir.get(), "job", O_RDWR | O_NOFOLLOW | O_CLOEXEC));
    folder.work.reset(::openat(dir.get(), "work", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!folder.job_file || !folder.work) {
        return "job folder jobs/" + id + " lacks its job file or work/ folder";
    }
    return "";
}

JobOutcome run_job(const JobFolder &folder, const std::string &id, std::uint64_t serial,
                   std::int64_t received_ns) {
    const std::string job_dir = "jobs/" + id;
    // A name of its own, though the folder is reused: the last job's cgroup may still be
    // on its way out.
    const std::string name = "job-" + std::to_string(serial);
    JobOutcome job;
    std::int64_t phase_start = received_ns;
    std::string phases;
    const auto phase_done = [&] {
        const std::int64_t now = now_ns();
        phases += (phases.empty() ? "" : ",") + std::to_string((now - phase_start) / 1000);
        phase_start = now;
    };
    phase_done();  // start: from the line's arrival to the worker's first step (its fork)
    const auto request = read_job_request(folder.job_file.get());
    if (!request) {
        job.problem = "job folder " + job_dir + " lacks a complete request in its job file";
        return job;
    }
    const UniqueFd stdin_file = make_stdin(request->stdin_text);
    if (!stdin_file) {
        job.problem = std::string("stdin memfd: ") + std::strerror(errno);
        return job;
    }
    phase_done();  // request
    const std::uint64_t keep = request->limit("output_bytes");
    const std::uint64_t timeout_ms = request->limit("timeout_ms");
    job.cgroup = std::make_unique<JobCgroup>(
        name, JobLimits{request->limit("memory_bytes"), request->limit("pids"),
                        request->decimal_limit("cpu_cores")});
    const JobCgroup &cgroup = *job.cgroup;
    Pipe out_pipe;
    Pipe err_pipe;
    Pipe report_pipe;
    if (!make_pipe(out_pipe) || !make_pipe(err_pipe) || !make_pipe(report_pipe)) {
        job.problem = std::string("pipe: ") + std::strerror(errno);
        return job;
    }
    const int private_tmp_errno = enter_private_tmp(request->limit("disk_bytes"));
    phase_done();  // setup: the cgroup, the pipes, the private /tmp
    const std::int64_t started = now_ns();
    const pid_t child = cgroup.fork_into();
    if (child < 0) {
        job.problem = std::string("fork: ") + std::strerror(errno);
        return job;
    }
    if (child == 0) {
        become_target(cgroup, *request,
                      {stdin_file.get(), out_pipe.write_end.get(), err_pipe.write_end.get(),
                       folder.work.get(), report_pipe.write_end.get()},
                      private_tmp_errno);
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
    phase_start = outcome.exited_ns;
    phases += "," + std::to_string((phase_start - started) / 1000);  // target: fork to its end
    char report[64] = {};
    const ssize_t reported = ::read(report_pipe.read_end.get(), report, sizeof report - 1);
    // Orphans the target left are children of the agent (PID 1) now: reap them.
    while (::waitpid(-1, nullptr, WNOHANG) > 0) {
    }

    const std::string spawn_error =
        reported > 0 ? std::string(report, static_cast<size_t>(reported)) : "";
    std::string result = result_text(outcome, ended - started, out, err, cgroup, spawn_error);
    phase_done();  // collect: the pipes drained, the target reaped, the counters read
    result += "phases_us " + phases + "\n\n";
    result += out.kept;
    result += err.kept;
    if (!write_all_at(folder.job_file.get(), result, request->bytes)) {
        job.problem = "cannot write the result into " + job_dir;
    }
    return job;
}

}  // namespace sbx::guest
