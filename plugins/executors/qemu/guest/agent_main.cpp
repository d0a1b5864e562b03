// sbx-guest-agent: PID 1 of the guest (exec'd by /init once the share is mounted). It takes
// commands from the host one line at a time on a serial port, so one boot serves many runs,
// several at once (each job in a worker process of its own):
//   host -> guest  "run N"   run the job in <share>/jobs/N, then answer "done N"
//                            (or "fail N <reason>" when it could not be started)
//   host -> guest  "quit"    power off
//   guest -> host  "fail ? <what>"  a line that is neither (control_line.hpp)
//   guest -> host  "ready"   once, when it takes commands
// Static: the initramfs has no C library.
#include <fcntl.h>
#include <poll.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
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

// The cgroup v2 tree with the controllers the jobs' limits need.
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
    termios mode{};
    if (::tcgetattr(port, &mode) == 0) {
        ::cfmakeraw(&mode);
        ::tcsetattr(port, TCSANOW, &mode);
    }
    prepare_cgroups();
    // The kernel's OOM killer must pick a job, never the agent.
    sbx::guest::write_file("/proc/self/oom_score_adj", "-1000");
    send_line(port, "ready");
    std::string buffer;
    std::string line;
    while (read_line(port, buffer, line)) {
        const auto command = sbx::guest::parse_control_line(line);
        if (command.kind == sbx::guest::ControlKind::quit) {
            break;
        }
        if (command.kind == sbx::guest::ControlKind::run) {
            const std::string &id = command.job_id;
            const pid_t worker = ::fork();
            if (worker == 0) {
                // One short line per write(2): answers of concurrent workers never interleave.
                std::string job_dir = share;
                job_dir += "/jobs/";
                job_dir += id;
                const std::string problem = sbx::guest::run_job(job_dir, "job-" + id);
                std::string answer = problem.empty() ? "done " : "fail ";
                answer += id;
                if (!problem.empty()) {
                    answer += ' ';
                    answer += problem;
                }
                send_line(port, answer);
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
