// fork + execve of a service. Everything the child needs (argv, environment, paths) is
// built before the fork: the host is multi-threaded, so the child calls only
// async-signal-safe functions until it execs.
#include "engine/service_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sbx/process_identity.hpp>

#include <spdlog/spdlog.h>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "engine/service_container.hpp"
#include "util/process_identity.hpp"

extern char **environ;  // NOLINT: POSIX global

namespace sbx::engine {
namespace {

constexpr auto kGrace = std::chrono::seconds(2);  // from SIGTERM to SIGKILL

// The host's environment, then the service's `env`, then SANDBOX_SERVICE_PORT and the
// SANDBOX_SERVICE_ID that purge-stale recognises its processes by.
std::vector<std::string> environment_of(const config::Service &service, int port,
                                        const std::string &id) {
    std::map<std::string, std::string> variables;
    for (char **entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
        const std::string text = *entry;
        const auto equals = text.find('=');
        if (equals != std::string::npos) {
            variables[text.substr(0, equals)] = text.substr(equals + 1);
        }
    }
    for (const auto &[name, value] : service.env) {
        variables[name] = with_port(value, port);
    }
    variables["SANDBOX_SERVICE_PORT"] = std::to_string(port);
    variables["SANDBOX_SERVICE_ID"] = id;
    std::vector<std::string> texts;
    texts.reserve(variables.size());
    for (const auto &[name, value] : variables) {
        std::string text = name;
        text.append("=").append(value);
        texts.push_back(std::move(text));
    }
    return texts;
}

std::vector<char *> pointers(std::vector<std::string> &texts) {
    std::vector<char *> result;
    result.reserve(texts.size() + 1);
    for (auto &text : texts) {
        result.push_back(text.data());
    }
    result.push_back(nullptr);
    return result;
}

std::atomic<unsigned> g_started{0};

// Every service is forked on this one thread, which lives as long as the host:
// PR_SET_PDEATHSIG fires when the *thread* that forked ends, and a worker thread ends when
// the matrix has no more work for it while a cell's shared service still serves the runs of
// other workers. Leaked on purpose: the thread is detached and never ends.
class Spawner {
  public:
    static Spawner &instance() {
        static Spawner *spawner = new Spawner();  // NOLINT(cppcoreguidelines-owning-memory)
        return *spawner;
    }
    // Runs `fork_child` (which forks and returns the child's pid, or -1 with errno) on the
    // spawner thread; returns its pid, or -1 with errno set.
    pid_t spawn(const std::function<pid_t()> &fork_child) {
        Task task{&fork_child};
        std::unique_lock<std::mutex> lock(mutex_);
        tasks_.push_back(&task);
        wake_.notify_all();
        done_.wait(lock, [&] { return task.done; });
        errno = task.error;
        return task.pid;
    }

  private:
    struct Task {
        const std::function<pid_t()> *fork_child = nullptr;
        pid_t pid = -1;
        int error = 0;
        bool done = false;
    };

    Spawner() {
        std::thread([this] { serve(); }).detach();
    }

    [[noreturn]] void serve() {
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            wake_.wait(lock, [&] { return !tasks_.empty(); });
            Task *task = tasks_.front();
            tasks_.pop_front();
            task->pid = (*task->fork_child)();
            task->error = errno;
            task->done = true;
            done_.notify_all();
        }
    }

    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable done_;
    std::deque<Task *> tasks_;
};

}  // namespace

std::string with_port(std::string text, int port) {
    static const std::string placeholder = "{{port}}";
    for (auto at = text.find(placeholder); at != std::string::npos;
         at = text.find(placeholder, at)) {
        text.replace(at, placeholder.size(), std::to_string(port));
    }
    return text;
}

std::string program_path(const std::string &program) {
    if (program.find('/') != std::string::npos) {
        const std::string path = std::filesystem::absolute(program).lexically_normal().string();
        return ::access(path.c_str(), X_OK) == 0 ? path : "";
    }
    const char *path = std::getenv("PATH");
    const std::string folders = path != nullptr ? path : "/usr/bin:/bin";
    for (std::size_t start = 0; start <= folders.size();) {
        const std::size_t end = std::min(folders.find(':', start), folders.size());
        std::string candidate = folders.substr(start, end - start);
        candidate.append("/").append(program);
        start = end + 1;
        if (::access(candidate.c_str(), X_OK) == 0) {
            return candidate;
        }
    }
    return "";
}

ServiceProcess::ServiceProcess(const config::Service &service, int port,
                               const std::filesystem::path &state_dir)
    : name_(service.name), port_(port) {
    const std::string id = std::to_string(::getpid()) + "-" + std::to_string(++g_started);
    std::filesystem::create_directories(state_dir / "services");
    // Absolute: an image service's folder is mounted at the same path in its container.
    folder_ = std::filesystem::absolute(state_dir / "services" / (id + ".d")).lexically_normal();
    record_ = state_dir / "services" / (id + ".json");
    const std::string folder = folder_.string();
    std::vector<std::string> argv;
    if (service.image.empty()) {
        argv.reserve(service.run.size());
        for (const auto &word : service.run) {
            argv.push_back(with_port(word, port));
        }
        argv.front() = program_path(service.run.front());
        if (argv.front().empty()) {
            throw ServiceError("service '" + name_ + "': its program '" + service.run.front() +
                               "' is not in PATH; write its absolute path in run:");
        }
    }
    const std::string container = service.image.empty() ? "" : service_container_name(id);
    std::filesystem::create_directories(folder_);
    for (const auto &[file, content] : service.files) {
        std::ofstream(folder_ / file, std::ios::binary) << with_port(content, port);
    }
    // Before the start: a host killed between the fork (or the container's start) and the
    // full record below still leaves purge-stale the service's name, its id (what every
    // process it starts carries as SANDBOX_SERVICE_ID) and its container.
    std::ofstream(record_) << nlohmann::json{{"host", own_identity()},
                                             {"pid", 0},
                                             {"name", name_},
                                             {"folder", folder_.string()},
                                             {"container", container}}
                                  .dump()
                           << '\n';
    if (!container.empty()) {
        try {
            container_ = std::make_unique<ServiceContainer>(service, port, id, folder_);
        } catch (const ServiceError &) {
            std::error_code ignored;  // it removed what it made
            std::filesystem::remove_all(folder_, ignored);
            std::filesystem::remove(record_, ignored);
            throw;
        }
        return;  // no process of the host: the record keeps pid 0
    }
    const std::string program = argv.front();
    std::vector<std::string> environment = environment_of(service, port, id);
    auto argv_pointers = pointers(argv);
    auto environment_pointers = pointers(environment);
    const std::string out = (folder_ / "stdout").string();
    const std::string err = (folder_ / "stderr").string();
    const pid_t parent = ::getpid();

    pid_ = Spawner::instance().spawn([&]() -> pid_t {
        const pid_t child = ::fork();
        if (child != 0) {
            return child;
        }
        // Its own group, so a stop reaches what it starts; dies with the spawner thread, that
        // is with the host, so a SIGKILLed host leaves no service behind (purge-stale takes
        // what it started). Only async-signal-safe calls until execve.
        ::setpgid(0, 0);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) {
            ::_exit(127);
        }
        const int in = ::open("/dev/null", O_RDONLY);
        const int out_fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const int err_fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (in < 0 || out_fd < 0 || err_fd < 0 || ::dup2(in, 0) < 0 || ::dup2(out_fd, 1) < 0 ||
            ::dup2(err_fd, 2) < 0 || ::chdir(folder.c_str()) != 0) {
            ::_exit(127);
        }
        ::syscall(SYS_close_range, 3U, ~0U, 0U);
        ::execve(program.c_str(), argv_pointers.data(), environment_pointers.data());
        ::_exit(127);
    });
    if (pid_ < 0) {
        const std::string why = std::strerror(errno);
        std::error_code ignored;
        std::filesystem::remove_all(folder_, ignored);
        std::filesystem::remove(record_, ignored);
        throw ServiceError("service '" + name_ + "': fork failed: " + why);
    }
    ::setpgid(pid_, pid_);  // also here: no window in which a stop misses the group
    const nlohmann::json record = {
        {"host", own_identity()}, {"pid", pid_},      {"start", process_start_time(pid_)},
        {"name", name_},          {"folder", folder}, {"container", ""}};
    std::ofstream(record_) << record.dump() << '\n';
}

ServiceProcess::~ServiceProcess() {
    stop();
}

std::optional<std::string> ServiceProcess::ended() const {
    if (container_) {
        return container_->ended();
    }
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0 ||
        info.si_pid == 0) {
        return std::nullopt;
    }
    if (info.si_code == CLD_EXITED) {
        std::error_code unknown;
        const bool silent = std::filesystem::file_size(folder_ / "stderr", unknown) == 0;
        return info.si_status == 127 && silent ? "could not be started (exit 127)"
                                               : "exited with " + std::to_string(info.si_status);
    }
    return std::string("was killed by signal ") + std::to_string(info.si_status) + " (" +
           ::strsignal(info.si_status) + ")";
}

std::string ServiceProcess::tail(bool stderr_stream, std::size_t bytes) const {
    std::ifstream in(folder_ / (stderr_stream ? "stderr" : "stdout"), std::ios::binary);
    in.seekg(0, std::ios::end);
    const auto size = static_cast<std::size_t>(std::max<std::streamoff>(0, in.tellg()));
    // Only the end is read: a chatty service shared by a cell has a log that only grows.
    in.seekg(static_cast<std::streamoff>(size > bytes ? size - bytes : 0));
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void ServiceProcess::stop() noexcept {
    if (pid_ > 0) {
        // The leader stays a zombie until reaped below, so its group id cannot be reused
        // while the group is signalled.
        ::kill(-pid_, SIGTERM);
        const auto deadline = std::chrono::steady_clock::now() + kGrace;
        while (!ended() && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        ::kill(-pid_, SIGKILL);  // what ignored SIGTERM, and what the leader left behind
        int status = 0;
        while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
        pid_ = -1;
    }
    if (container_) {
        // tini passes SIGTERM on to the server; what ignores it is killed after the grace.
        // When the engine cannot remove it (it is down), the record stays for purge-stale
        // once this host is gone.
        const std::string why = container_->remove(kGrace);
        const std::string name = container_->name();
        container_.reset();
        if (!why.empty()) {
            spdlog::warn("service '{}': its container {} is left for purge-stale: {}", name_, name,
                         why);
            return;
        }
    }
    std::error_code ignored;
    std::filesystem::remove_all(folder_, ignored);
    std::filesystem::remove(record_, ignored);
}

}  // namespace sbx::engine
