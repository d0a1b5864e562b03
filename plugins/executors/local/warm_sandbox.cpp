// The host's side of the warm sandbox: making the zygote, handing it runs, and the
// RunningTarget of a warm run.
#include "warm_sandbox.hpp"

#include <sbx/plugin.hpp>

#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <optional>
#include <string_view>
#include <utility>

#include "support/block_all_signals.hpp"
#include "support/sys_error.hpp"
#include "support/user_namespace.hpp"
#include "zygote.hpp"

namespace sbx::local {
namespace {

// Waits while the zygote's phase word holds `value`.
pid_t wait_while(pid_t &phase, pid_t value) {
    pid_t now;
    while ((now = __atomic_load_n(&phase, __ATOMIC_ACQUIRE)) == value) {
        ::syscall(SYS_futex, &phase, FUTEX_WAIT, value, nullptr, nullptr, 0);
    }
    return now;
}

bool under_scratch(std::string_view path) {
    return path.rfind("/tmp/", 0) == 0 || path.rfind("/dev/shm/", 0) == 0;
}

// The identity of the file or folder at `path`; nullopt when it cannot be read (the run then
// starts cold, which says what is wrong).
template <typename Identity>
std::optional<Identity> identity_of(const char *path) {
    struct stat info {};
    if (::stat(path, &info) != 0) {
        return std::nullopt;
    }
    return Identity{info.st_dev, info.st_ino};
}

// The paths a sandbox attached, in a fixed order.
template <typename Visit>
bool each_attached_path(const SpawnRequest &request, Visit &&visit) {
    if (request.workdir != nullptr && !visit(request.workdir)) {
        return false;
    }
    for (const char *bind : request.bind_paths) {
        if (!visit(bind)) {
            return false;
        }
    }
    for (const support::BindPath &shown : request.shown) {
        if (!visit(shown.path.c_str())) {
            return false;
        }
    }
    return true;
}

bool inside(std::string_view path, std::string_view folder) {
    return path.size() > folder.size() && path.rfind(folder, 0) == 0 && path[folder.size()] == '/';
}

// A run in the warm sandbox: the target's pidfd tells its end; the zygote's phase word tells
// when nothing of the run is left.
class WarmTarget final : public RunningTarget {
  public:
    WarmTarget(ZygoteBlock &block, UniqueFd pidfd, bool user_namespace)
        : block_(block), pidfd_(std::move(pidfd)), user_namespace_(user_namespace) {}
    ~WarmTarget() override {
        if (waited_) {
            return;
        }
        kill();
        try {
            (void)wait();
        } catch (...) {  // the zygote ended: so did the run
        }
    }
    WarmTarget(const WarmTarget &) = delete;
    WarmTarget &operator=(const WarmTarget &) = delete;
    WarmTarget(WarmTarget &&) = delete;
    WarmTarget &operator=(WarmTarget &&) = delete;

    [[nodiscard]] int ended_fd() const override { return pidfd_.get(); }
    [[nodiscard]] Isolation isolation() const override { return Isolation::kPidNamespace; }
    [[nodiscard]] bool user_namespace() const override { return user_namespace_; }
    void kill() noexcept override {
        (void)::syscall(SYS_pidfd_send_signal, pidfd_.get(), SIGKILL, nullptr, 0);
    }
    ExitInfo wait() override {
        waited_ = true;
        if (wait_while(block_.launch.phase, kPhaseReported) != kPhaseIdle) {
            throw Error(SBX_ERROR,
                        "the run's warm sandbox ended during the run (was its zygote killed?); "
                        "the run's processes ended with it");
        }
        const LaunchBlock &launch = block_.launch;
        ExitInfo info;
        info.wait_status = launch.target_wait_status;
        info.usage.ru_utime.tv_sec = launch.cpu_user_us / 1000000;
        info.usage.ru_utime.tv_usec = launch.cpu_user_us % 1000000;
        info.usage.ru_stime.tv_sec = launch.cpu_sys_us / 1000000;
        info.usage.ru_stime.tv_usec = launch.cpu_sys_us % 1000000;
        info.usage.ru_maxrss = launch.max_rss_kb;
        info.usage.ru_inblock = launch.in_blocks;
        info.usage.ru_oublock = launch.out_blocks;
        return info;
    }

  private:
    ZygoteBlock &block_;
    UniqueFd pidfd_;
    bool user_namespace_;
    bool waited_ = false;
};

thread_local std::unique_ptr<WarmSandbox> t_sandbox;

}  // namespace

bool WarmSandbox::Shape::matches(const SpawnRequest &request) const {
    if (mode != request.filesystem || workdir != request.workdir ||
        tmpfs_workspace != (request.workspace_mount_fd >= 0) ||
        bind_writable != request.bind_writable || binds.size() != request.bind_paths.size() ||
        shown.size() != request.shown.size()) {
        return false;
    }
    for (std::size_t i = 0; i < binds.size(); ++i) {
        if (binds[i] != request.bind_paths[i]) {
            return false;
        }
    }
    for (std::size_t i = 0; i < shown.size(); ++i) {
        if (shown[i].path != request.shown[i].path ||
            shown[i].writable != request.shown[i].writable) {
            return false;
        }
    }
    std::size_t next = 0;
    return each_attached_path(request, [&](const char *path) {
        const auto now = identity_of<PathIdentity>(path);
        return next < identities.size() && now && *now == identities[next++];
    });
}

WarmSandbox::Shape WarmSandbox::shape_of(const SpawnRequest &request) {
    Shape shape;
    shape.mode = request.filesystem;
    shape.workdir = request.workdir;
    shape.shown = request.shown;
    shape.binds.assign(request.bind_paths.begin(), request.bind_paths.end());
    shape.bind_writable = request.bind_writable;
    shape.tmpfs_workspace = request.workspace_mount_fd >= 0;
    // A path that cannot be read leaves the list short: no later run matches it.
    each_attached_path(request, [&](const char *path) {
        const auto identity = identity_of<PathIdentity>(path);
        if (identity) {
            shape.identities.push_back(*identity);
        }
        return identity.has_value();
    });
    return shape;
}

WarmSandbox *WarmSandbox::for_request(const SpawnRequest &request) {
    if (!request.warm || request.netns_fd >= 0 || current_tier() == Tier::kProcessGroup) {
        return nullptr;
    }
    // Compared in place: this runs before every run, and copying the paths would not be free.
    if (t_sandbox && t_sandbox->usable() && t_sandbox->shape_.matches(request)) {
        return t_sandbox.get();
    }
    t_sandbox.reset();
    std::unique_ptr<WarmSandbox> sandbox(new WarmSandbox(shape_of(request)));
    if (!sandbox->make()) {
        return nullptr;  // the cold start says what is wrong
    }
    t_sandbox = std::move(sandbox);
    return t_sandbox.get();
}

void WarmSandbox::drop() {
    t_sandbox.reset();
}

WarmSandbox::WarmSandbox(Shape shape) : shape_(std::move(shape)) {
    for (const std::string &bind : shape_.binds) {
        bind_pointers_.push_back(bind.c_str());
    }
    // No per-run tmpfs here: the zygote attaches each run's own over the workspace.
    plan_ = std::make_unique<ViewPlan>(shape_.mode, shape_.workdir.c_str(), -1, shape_.shown,
                                       bind_pointers_, shape_.bind_writable);
    plan_scratch();
}

// The mounts under /tmp and /dev/shm that each run's new ones must hold again, in the
// order the view attached them, without those inside another (they come with it).
void WarmSandbox::plan_scratch() {
    const MountView &view = plan_->view();
    std::vector<const char *> candidates;
    if (view.mode == support::FilesystemMode::kReadonly) {
        candidates.assign(view.shown_paths, view.shown_paths + view.shown_count);
    } else if (view.mode == support::FilesystemMode::kMinimal) {
        candidates.assign(view.bind_paths, view.bind_paths + view.bind_count);
    }
    if (view.mode != support::FilesystemMode::kHost) {
        candidates.push_back(view.workdir);
    }
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const std::string_view path = candidates[i];
        bool nested = !under_scratch(path);
        for (std::size_t j = 0; !nested && j < candidates.size(); ++j) {
            nested = inside(path, candidates[j]) || (j < i && path == candidates[j]);
        }
        if (!nested) {
            kept_.push_back(candidates[i]);
        }
    }
    plan_scratch_folders();
}

// The folders of a fresh /tmp and /dev/shm and the names in each: the roots, and every
// folder on the way to a kept mount point with the next step of that way.
void WarmSandbox::plan_scratch_folders() {
    auto add_name = [this](const std::string &folder, const std::string &name) {
        std::size_t i = 0;
        while (i < folders_.size() && folders_[i] != folder) {
            ++i;
        }
        if (i == folders_.size()) {
            folders_.push_back(folder);
            fresh_names_.emplace_back();
        }
        if (name.empty()) {
            return;
        }
        std::string &names = fresh_names_[i];
        const std::string padded = "/" + names + "/";
        if (padded.find("/" + name + "/") == std::string::npos) {
            names += (names.empty() ? "" : "/") + name;
        }
    };
    add_name("/tmp", "");
    add_name("/dev/shm", "");
    for (const char *kept : kept_) {
        const std::string path = kept;
        const std::size_t root = path.rfind("/tmp/", 0) == 0 ? 4 : 8;  // "/tmp" or "/dev/shm"
        for (std::size_t slash = root; slash != std::string::npos;) {
            const std::size_t next = path.find('/', slash + 1);
            add_name(path.substr(0, slash), path.substr(slash + 1, next - slash - 1));
            slash = next;
        }
    }
    if (folders_.size() > kMaxScratchFolders) {
        folders_.clear();  // not checked: every run gets new ones
        fresh_names_.clear();
        checkable_ = false;
    }
    for (std::size_t i = 0; i < folders_.size(); ++i) {
        folder_pointers_.push_back(folders_[i].c_str());
        fresh_name_pointers_.push_back(fresh_names_[i].c_str());
    }
}

WarmSandbox::~WarmSandbox() {
    if (pid_ > 0) {
        if (::syscall(SYS_pidfd_send_signal, pidfd_.get(), SIGKILL, nullptr, 0) != 0) {
            ::kill(pid_, SIGKILL);
        }
        int status = 0;
        while (::waitpid(pid_, &status, __WALL) < 0 && errno == EINTR) {
        }
    }
    // Opened by the zygote in our descriptor table; it cannot use it any more.
    if (block_ && block_->mounts_fd >= 0) {
        ::close(block_->mounts_fd);
    }
}

bool WarmSandbox::usable() const {
    return __atomic_load_n(&block_->launch.phase, __ATOMIC_ACQUIRE) == kPhaseIdle &&
           !block_->retired;
}

bool WarmSandbox::make() {
    block_ = std::make_unique<ZygoteBlock>();
    const MountView &view = plan_->view();
    const bool mount_namespace = needs_mount_namespace(view) || shape_.tmpfs_workspace;
    block_->view = mount_namespace ? &view : nullptr;
    block_->scratch.kept = kept_.data();
    block_->scratch.kept_count = kept_.size();
    block_->scratch.folders = folder_pointers_.data();
    block_->scratch.fresh_names = fresh_name_pointers_.data();
    block_->scratch.folder_count = folder_pointers_.size();
    block_->scratch.checkable = checkable_;
    block_->launch.pid_namespace = true;
    Tier tier = current_tier();
    int pidfd = -1;
    for (;;) {
        if (tier == Tier::kProcessGroup) {
            return false;
        }
        // CLONE_FILES: each run's descriptors, made by us, are in the zygote's table too.
        int flags = CLONE_VM | CLONE_FILES | CLONE_PIDFD | CLONE_CHILD_CLEARTID | SIGCHLD |
                    CLONE_NEWPID | (mount_namespace ? CLONE_NEWNS : 0);
        block_->launch.id_maps = nullptr;
        if (tier == Tier::kUserNamespace) {
            flags |= CLONE_NEWUSER;
            block_->launch.id_maps = &support::caller_id_maps();
        }
        block_->launch.phase = kPhaseLaunching;
        int error = 0;
        {
            support::BlockAllSignals blocked;
            pid_ = ::clone(run_zygote, block_->launch.init_stack.top(), flags, block_.get(), &pidfd,
                           nullptr, &block_->launch.phase);
            error = errno;
        }
        if (pid_ >= 0) {
            break;
        }
        if (!refused_by_kernel(error)) {
            host::log(SBX_LOG_DEBUG, "cannot start a warm sandbox: clone: " +
                                         support::errno_text(error) + "; runs start cold");
            return false;
        }
        tier = step_down_from(tier, error);
    }
    pidfd_.reset(pidfd);
    user_namespace_ = tier == Tier::kUserNamespace;
    if (wait_while(block_->launch.phase, kPhaseLaunching) != kPhaseIdle) {
        host::log(SBX_LOG_DEBUG, std::string("cannot set up a warm sandbox (") +
                                     child_step_name(block_->launch.failed_step) +
                                     "): " + support::errno_text(block_->launch.failed_errno) +
                                     "; runs start cold");
        return false;  // the destructor reaps the zygote
    }
    return true;
}

std::optional<SpawnOutcome> WarmSandbox::start(const SpawnRequest &request) {
    LaunchBlock &launch = block_->launch;
    launch.request = &request;
    launch.limits = request.limits.data();
    launch.limit_count = request.limits.size();
    launch.cgroup_fds = request.cgroup_procs_fds.data();
    launch.cgroup_fd_count = request.cgroup_procs_fds.size();
    launch.cloned_into_cgroup = false;
    launch.failed_errno = 0;
    launch.failed_step = kNoFailure;
    launch.target_started = false;
    launch.target_ended = false;
    launch.target_wait_status = 0;
    launch.max_rss_kb = 0;
    launch.cpu_user_us = 0;
    launch.cpu_sys_us = 0;
    launch.in_blocks = 0;
    launch.out_blocks = 0;
    block_->target_pidfd = -1;
    pid_t idle = kPhaseIdle;
    // A compare-and-swap: the kernel zeroes the word when the zygote ends, even now.
    if (!__atomic_compare_exchange_n(&launch.phase, &idle, kPhaseLaunching, false, __ATOMIC_SEQ_CST,
                                     __ATOMIC_SEQ_CST)) {
        return std::nullopt;
    }
    __atomic_store_n(&block_->command, kZygoteRun, __ATOMIC_RELEASE);
    ::syscall(SYS_futex, &block_->command, FUTEX_WAKE, 1, nullptr, nullptr, 0);
    // Idle: the run started and has already ended (this thread was slower than the target).
    const pid_t phase = wait_while(launch.phase, kPhaseLaunching);
    if (phase != kPhaseReported && phase != kPhaseIdle) {
        host::log(SBX_LOG_DEBUG,
                  std::string("the warm sandbox broke (") + child_step_name(launch.failed_step) +
                      "): " + support::errno_text(launch.failed_errno) + "; this run starts cold");
        return std::nullopt;
    }
    UniqueFd target_pidfd(block_->target_pidfd);
    SpawnOutcome outcome;
    outcome.warm = true;
    outcome.cloned_into_cgroup = launch.cloned_into_cgroup;
    if (!launch.target_started) {
        // The target gave up before its exec: the step and errno are the run's.
        outcome.failed_errno = launch.failed_errno;
        outcome.failed_step = child_step_name(launch.failed_step);
        (void)wait_while(launch.phase, kPhaseReported);
        return outcome;
    }
    outcome.target =
        std::make_unique<WarmTarget>(*block_, std::move(target_pidfd), user_namespace_);
    return outcome;
}

}  // namespace sbx::local
