// QEMU as a child process. It dies with the thread that started it (PR_SET_PDEATHSIG), so a
// host killed outright takes its guests along; sweep() covers what a pid-reusing race or a
// host that forked away might leave.
#include "guest_vm.hpp"

#include "disk_overlay.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <future>
#include <iterator>
#include <thread>
#include <vector>

#include "support/number_parse.hpp"

namespace sbx::qemu {
namespace {

// QEMU's option syntax doubles a comma inside a value.
std::string escaped(const std::string &value) {
    std::string out;
    for (const char c : value) {
        out += c;
        if (c == ',') {
            out += ',';
        }
    }
    return out;
}

// The last `bytes` of a file, read from there (a console log may be large).
std::string tail_of(const std::string &path, size_t bytes) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    const std::streamoff size = in ? static_cast<std::streamoff>(in.tellg()) : 0;
    const std::streamoff from =
        std::max<std::streamoff>(0, size - static_cast<std::streamoff>(bytes));
    in.seekg(from);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return from > 0 ? "..." + text : text;
}

// The guest's end of the control channel is fd 3 in QEMU (-chardev socket,fd=3).
constexpr int kControlFd = 3;

[[noreturn]] void run_qemu_child(std::vector<char *> &argv, const std::string &log, pid_t parent,
                                 int control) {
    // Only async-signal-safe calls from here to exec: the host has threads.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) {
        ::_exit(127);
    }
    ::setpgid(0, 0);  // a Ctrl-C to the host's terminal is the host's to handle
    const int null_fd = ::open("/dev/null", O_RDONLY);
    const int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (null_fd < 0 || log_fd < 0 || ::dup2(null_fd, 0) < 0 || ::dup2(log_fd, 1) < 0 ||
        ::dup2(log_fd, 2) < 0 ||
        (control == kControlFd ? ::fcntl(control, F_SETFD, 0) : ::dup2(control, kControlFd)) < 0) {
        ::_exit(127);
    }
    ::close_range(kControlFd + 1, ~0U, 0);
    ::execvp(argv[0], argv.data());
    const char *message = "cannot execute the QEMU binary\n";
    (void)!::write(2, message, std::strlen(message));
    ::_exit(127);
}

}  // namespace

GuestVm::GuestVm(const GuestPlan &plan, std::unique_ptr<OverlayDir> overlay,
                 const std::function<bool()> &cancelled)
    : plan_(plan), overlay_(std::move(overlay)) {
    spawn();
    try {
        overlay_->record_vm(pid_);
    } catch (const std::exception &e) {
        kill_now();
        throw BootFailure(std::string("cannot record the guest: ") + e.what());
    }
    const auto deadline = Clock::now() + std::chrono::milliseconds(plan_.boot_timeout_ms);
    const auto keep_going = [&] { return !cancelled() && !exited(); };
    const auto fail = [&](const std::string &why) {
        kill_now();
        const std::string qemu_said = tail_of(overlay_->path() + "/qemu.log", 600);
        const std::string console = console_tail();
        throw BootFailure(why + (qemu_said.empty() ? "" : "; qemu: " + qemu_said) +
                          (console.empty() ? "" : "; console: " + console));
    };
    const auto line = channel_.read_line(deadline, keep_going);
    if (line && *line == "ready") {
        fail(
            "the guest's agent is older than this plugin (it said 'ready', not 'ready 2'); "
            "build the guest again: tools/build-guest-initramfs --agent "
            "build/bin/sbx-guest-agent ...");
    }
    if (!line || *line != "ready 2") {
        if (cancelled()) {
            fail("boot cancelled by the host");
        }
        fail(line       ? "the guest agent said '" + *line + "' instead of 'ready 2'"
             : exited() ? "the guest stopped before its agent was ready"
                        : "the guest agent was not ready within " +
                              std::to_string(plan_.boot_timeout_ms) + " ms");
    }
    try {
        reader_ = std::thread([this] { read_answers(); });
    } catch (const std::exception &e) {
        fail(std::string("cannot start the answer reader: ") + e.what());
    }
}

void GuestVm::read_answers() {
    while (!stopping_) {
        const auto line =
            channel_.read_line(Clock::time_point::max(), [this] { return !stopping_.load(); });
        if (!line) {
            if (channel_.closed() || stopping_) {
                break;
            }
            continue;
        }
        // "done N" or "fail N why".
        const size_t space = line->find(' ');
        if (space == std::string::npos) {
            continue;
        }
        const std::size_t id_end = line->find(' ', space + 1);
        const std::uint64_t id =
            support::parse_uint64(std::string_view(*line).substr(space + 1, id_end - space - 1))
                .value_or(0);
        const std::lock_guard<std::mutex> lock(answers_mutex_);
        if (awaited_.count(id) != 0) {  // an answer nobody waits for is dropped
            answers_[id] = *line;
            answer_ready_.notify_all();
        }
    }
    const std::lock_guard<std::mutex> lock(answers_mutex_);
    channel_down_ = true;
    answer_ready_.notify_all();
}

void GuestVm::stop_reader() {
    stopping_ = true;
    if (reader_.joinable()) {
        reader_.join();
    }
}

GuestVm::~GuestVm() {
    bool sent = false;
    {
        const std::lock_guard<std::mutex> lock(send_mutex_);
        sent = !exited() && channel_.send_line("quit");
    }
    if (sent) {
        // The agent syncs and powers off; a guest that does not is killed.
        for (int tick = 0; tick < 100 && !exited(); ++tick) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }
    kill_now();
}

void GuestVm::spawn() {
    const std::string folder = overlay_->path();
    std::vector<std::string> args{plan_.qemu_binary, "-name", "sbx-guest,process=sbx-guest"};
    if (!plan_.bios.empty()) {
        args.insert(args.end(), {"-bios", plan_.bios});
    }
    args.insert(args.end(), {"-machine",
                             "accel=" + plan_.accel,
                             "-cpu",
                             plan_.cpu,
                             "-display",
                             "none",
                             "-nodefaults",
                             "-no-user-config",
                             "-no-reboot",
                             "-net",
                             "none",
                             "-m",
                             std::to_string(plan_.memory_mb),
                             "-smp",
                             std::to_string(plan_.cpus),
                             "-serial",
                             "file:" + folder + "/console.log",
                             "-chardev",
                             "socket,id=ctl,fd=" + std::to_string(kControlFd),
                             "-serial",
                             "chardev:ctl",
                             "-kernel",
                             plan_.kernel,
                             "-initrd",
                             plan_.initrd,
                             "-append",
                             "console=ttyS0 quiet loglevel=3 panic=-1",
                             "-virtfs",
                             "local,path=" + escaped(folder + "/share") +
                                 ",mount_tag=host0,security_model=none,id=host0"});
    if (!plan_.image.empty()) {
        try {
            create_disk_overlay(plan_.image, folder + "/disk.qcow2");
        } catch (const std::exception &e) {
            throw BootFailure(e.what());
        }
        args.insert(args.end(), {"-drive", "file=" + escaped(folder + "/disk.qcow2") +
                                               ",if=virtio,format=qcow2"});
    }
    std::vector<char *> argv;
    argv.reserve(args.size() + 1);
    for (auto &arg : args) {
        argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    const std::string log = folder + "/qemu.log";
    const pid_t parent = ::getpid();

    // A socket pair, not a named socket: no path to outgrow sun_path or to be taken over.
    int ends[2] = {-1, -1};
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
        throw BootFailure(std::string("socketpair: ") + std::strerror(errno));
    }
    channel_.adopt(ends[0]);
    const int guest_end = ends[1];
    std::promise<std::pair<pid_t, int>> forked;
    keeper_ = std::thread([&, this] {
        const pid_t child = ::fork();
        if (child != 0) {
            forked.set_value({child, child < 0 ? errno : 0});
            std::unique_lock<std::mutex> lock(keeper_mutex_);
            keeper_wake_.wait(lock, [this] { return keeper_stop_; });
            return;
        }
        run_qemu_child(argv, log, parent, guest_end);
    });
    const auto [child, error] = forked.get_future().get();
    ::close(guest_end);
    pid_ = child;
    if (pid_ < 0) {
        stop_keeper();
        throw BootFailure(std::string("fork: ") + std::strerror(error));
    }
}

void GuestVm::stop_keeper() {
    if (keeper_.joinable()) {
        {
            std::lock_guard<std::mutex> lock(keeper_mutex_);
            keeper_stop_ = true;
        }
        keeper_wake_.notify_all();
        keeper_.join();
    }
}

bool GuestVm::exited() {
    const std::lock_guard<std::mutex> lock(reap_mutex_);
    if (reaped_ || pid_ <= 0) {
        return true;
    }
    int status = 0;
    const pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_ || (done < 0 && errno == ECHILD)) {
        reaped_ = true;
    }
    return reaped_;
}

bool GuestVm::usable() {
    if (exited()) {
        return false;
    }
    const std::lock_guard<std::mutex> lock(answers_mutex_);
    return !channel_down_;
}

std::optional<std::string> GuestVm::run_job(std::uint64_t id, Clock::time_point deadline,
                                            const std::function<bool()> &keep_waiting) {
    std::unique_lock<std::mutex> lock(answers_mutex_);
    awaited_.insert(id);
    // Every way out forgets the id (and an answer that came too late).
    const auto done = [&](std::optional<std::string> answer) {
        awaited_.erase(id);
        answers_.erase(id);
        return answer;
    };
    lock.unlock();
    bool sent = false;
    {
        const std::lock_guard<std::mutex> sending(send_mutex_);
        sent = channel_.send_line("run " + std::to_string(id));
    }
    lock.lock();
    if (!sent) {
        return done(std::nullopt);
    }
    while (true) {
        if (const auto found = answers_.find(id); found != answers_.end()) {
            return done(found->second);
        }
        if (channel_down_ || Clock::now() >= deadline) {
            return done(std::nullopt);
        }
        lock.unlock();
        const bool keep = keep_waiting();
        lock.lock();
        if (!keep) {
            return done(std::nullopt);
        }
        answer_ready_.wait_for(lock, std::chrono::milliseconds(100));
    }
}

std::uint64_t GuestVm::take_job_folder() {
    const std::lock_guard<std::mutex> lock(folders_mutex_);
    if (free_folders_.empty()) {
        return ++folders_made_;
    }
    const std::uint64_t n = free_folders_.back();
    free_folders_.pop_back();
    return n;
}

void GuestVm::return_job_folder(std::uint64_t n) {
    const std::lock_guard<std::mutex> lock(folders_mutex_);
    free_folders_.push_back(n);
}

std::string GuestVm::console_tail() const {
    return tail_of(overlay_->path() + "/console.log", 600);
}

void GuestVm::kill_now() {
    {
        const std::lock_guard<std::mutex> lock(reap_mutex_);
        if (pid_ > 0 && !reaped_) {
            ::kill(pid_, SIGKILL);
            int status = 0;
            while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
            }
            reaped_ = true;
        }
    }
    const std::lock_guard<std::mutex> lock(stop_mutex_);
    stop_reader();
    stop_keeper();
}

}  // namespace sbx::qemu
