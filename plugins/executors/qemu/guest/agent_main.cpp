// sbx-guest-agent: PID 1 of the guest (exec'd by /init once the share is mounted). It takes
// commands from the host one line at a time on a serial port, so one boot serves many runs,
// several at once (each job in a worker process of its own):
//   host -> guest  "run N"   run the job in <share>/jobs/N, then answer "done N"
//                            (or "fail N <reason>" when it could not be started); the
//                            host reuses a folder once it has its answer, and the agent
//                            keeps each folder's files open from its first run on
//   host -> guest  "quit"    power off
//   guest -> host  "fail ? <what>"  a line that is neither (control_line.hpp)
//   guest -> host  "ready 2" once, when it takes commands (2: the one-file request and
//                            result of job.hpp; an agent that says "ready" alone is older)
// Static: the initramfs has no C library.
#include <fcntl.h>
#include <poll.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>

#include "control_line.hpp"
#include "file_io.hpp"
#include "job.hpp"

namespace {

bool send_line(int fd, const std::string &line) {
    const std::string text = line + "\n";
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t wrote = ::write(fd, text.data() + done, text.size() - done);
        if (wrote <= 0) {
            return false;
        }
        done += static_cast<size_t>(wrote);
    }
    ::tcdrain(fd);
    return true;
}

// The next line from the port. Between reads it reaps every ended child: finished job
// workers, and the orphans targets leave, which the kernel hands to PID 1.
bool read_line(int fd, std::string &buffer, std::string &line) {
    while (!sbx::guest::take_line(buffer, line)) {
        while (::waitpid(-1, nullptr, WNOHANG) > 0) {
        }
        pollfd wanted{fd, POLLIN, 0};
        if (::poll(&wanted, 1, 200) <= 0) {
            continue;
        }
        char chunk[256];
        const ssize_t got = ::read(fd, chunk, sizeof chunk);
        if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN)) {
            return false;
        }
        if (got > 0) {
            buffer.append(chunk, static_cast<size_t>(got));
        }
    }
    return true;
}

std::int64_t now_ns() {
    timespec now{};
    ::clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<std::int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

// The cgroup v2 tree with the controllers the jobs' limits need. Plain: `favordynmods`
// would make moving a process in cheaper, but jobs are born inside their cgroup
// (JobCgroup::fork_into), and the option makes every fork, exit and cgroup change dearer
// (2 to 4 ms per run under emulation, measured).
void prepare_cgroups() {
    ::mkdir("/sys/fs/cgroup", 0755);
    if (::mount("cgroup2", "/sys/fs/cgroup", "cgroup2", 0, nullptr) != 0) {
        std::perror("sbx-guest-agent: mount cgroup2");
        return;
    }
    for (const char *controller : {"+memory", "+pids", "+cpu"}) {
        sbx::guest::write_file("/sys/fs/cgroup/cgroup.subtree_control", controller);
    }
}

[[noreturn]] void power_off() {
    ::sync();
    ::reboot(RB_POWER_OFF);
    ::_exit(0);
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: sbx-guest-agent SERIAL_DEVICE SHARE_DIR\n");
        power_off();
    }
    const std::string share = argv[2];
    const int port = ::open(argv[1], O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (port < 0) {
        std::perror("sbx-guest-agent: open serial port");
        power_off();
    }
    // Raw, at the UART's top speed: QEMU moves the bytes at once whatever the speed, but
    // the guest's receive FIFO interrupts only at 8 bytes or after 4 idle character times,
    // 4 ms at the default 9600 baud for a short "run N" line, 0.35 ms at 115200.
    termios mode{};
    if (::tcgetattr(port, &mode) == 0) {
        ::cfmakeraw(&mode);
        ::cfsetspeed(&mode, B115200);
        ::tcsetattr(port, TCSANOW, &mode);
    }
    prepare_cgroups();
    // The kernel's OOM killer must pick a job, never the agent.
    sbx::guest::write_file("/proc/self/oom_score_adj", "-1000");
    // Held open: each job's folder is then one 9p walk away, not two.
    const int jobs = ::open((share + "/jobs").c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (jobs < 0) {
        std::perror("sbx-guest-agent: open the share's jobs folder");
        power_off();
    }
    send_line(port, "ready 2");
    std::map<std::string, sbx::guest::JobFolder> folders;  // by folder name
    std::uint64_t jobs_started = 0;
    std::string buffer;
    std::string line;
    while (read_line(port, buffer, line)) {
        const auto command = sbx::guest::parse_control_line(line);
        if (command.kind == sbx::guest::ControlKind::quit) {
            break;
        }
        if (command.kind == sbx::guest::ControlKind::run) {
            const std::string &id = command.job_id;
            const std::int64_t received_ns = now_ns();
            // Opened at its first run and kept: the host reuses its job folders, and every
            // 9p walk, open and close costs the guest round trips to QEMU.
            auto &folder = folders[id];
            if (!folder.job_file) {
                if (const std::string problem = sbx::guest::open_job_folder(jobs, id, folder);
                    !problem.empty()) {
                    folders.erase(id);
                    std::string answer = "fail ";
                    answer += id;
                    answer += ' ';
                    answer += problem;
                    send_line(port, answer);
                    continue;
                }
            }
            const std::uint64_t serial = ++jobs_started;
            const pid_t worker = ::fork();
            if (worker == 0) {
                {
                    // One short line per write(2): answers of concurrent workers never
                    // interleave.
                    sbx::guest::JobOutcome job =
                        sbx::guest::run_job(folder, id, serial, received_ns);
                    std::string answer = job.problem.empty() ? "done " : "fail ";
                    answer += id;
                    if (!job.problem.empty()) {
                        answer += ' ';
                        answer += job.problem;
                    }
                    send_line(port, answer);
                    job.cgroup.reset();  // its processes are gone: only the folder is left
                }
                ::_exit(0);
            }
            if (worker < 0) {
                send_line(port, "fail " + id + " fork: " + std::strerror(errno));
            }
        } else {
            send_line(port, "fail ? " + command.problem);
        }
    }
    power_off();
}
