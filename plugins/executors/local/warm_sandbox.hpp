// A warm sandbox per worker thread: the expensive part of a run's isolation (the PID
// namespace, the mount namespace with the read-only view, the user namespace without root)
// made once, by a zygote (zygote.hpp) that then starts each run with one clone. A run in it
// is what a cold run is (spawn.cpp): the same view, a fresh empty /tmp and /dev/shm, the
// run's own cgroups, nothing left of earlier runs; measured here it costs ~0.3 ms less.
//
// Each thread keeps the sandbox of the view its last run had and makes a new one when the
// view changes (another workspace, other shown paths or binds). Runs in a network
// namespace, and runs without namespaces, start cold.
#pragma once

#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <sbx/unique_fd.hpp>
#include "namespace_tier.hpp"
#include "spawn.hpp"
#include "view_plan.hpp"

namespace sbx::local {

struct ZygoteBlock;

class WarmSandbox {
  public:
    // The calling thread's sandbox for runs like `request`, made (or made again) when
    // missing, different or broken; nullptr when such a run starts cold.
    static WarmSandbox *for_request(const SpawnRequest &request);
    // Ends the calling thread's sandbox (it broke): the next run makes a new one.
    static void drop();

    ~WarmSandbox();
    WarmSandbox(const WarmSandbox &) = delete;
    WarmSandbox &operator=(const WarmSandbox &) = delete;
    WarmSandbox(WarmSandbox &&) = delete;
    WarmSandbox &operator=(WarmSandbox &&) = delete;

    // Starts the run; nullopt when the sandbox broke before the target ran (the caller then
    // drops it and starts the run cold).
    std::optional<SpawnOutcome> start(const SpawnRequest &request);

  private:
    struct PathIdentity {
        dev_t device = 0;
        ino_t inode = 0;
        bool operator==(const PathIdentity &other) const {
            return device == other.device && inode == other.inode;
        }
    };
    // What a sandbox was built for: a run with another of these needs another sandbox.
    struct Shape {
        support::FilesystemMode mode = support::FilesystemMode::kHost;
        std::string workdir;
        std::vector<support::BindPath> shown;
        std::vector<std::string> binds;
        std::vector<char> bind_writable;
        bool tmpfs_workspace = false;
        // The device and inode of the workspace, each bind and each shown path when the
        // sandbox attached them: a folder removed and made again at the same path is
        // another folder, which the sandbox's mounts do not show.
        std::vector<PathIdentity> identities;
        [[nodiscard]] bool matches(const SpawnRequest &request) const;
    };
    static Shape shape_of(const SpawnRequest &request);

    explicit WarmSandbox(Shape shape);
    bool make();  // starts the zygote; false when it could not be set up
    [[nodiscard]] bool usable() const;
    void plan_scratch();
    void plan_scratch_folders();

    Shape shape_;
    std::vector<const char *> bind_pointers_;
    std::unique_ptr<ViewPlan> plan_;
    std::vector<const char *> kept_;
    std::vector<std::string> folders_;
    std::vector<std::string> fresh_names_;
    std::vector<const char *> folder_pointers_;
    std::vector<const char *> fresh_name_pointers_;
    bool checkable_ = true;
    std::unique_ptr<ZygoteBlock> block_;
    pid_t pid_ = -1;
    UniqueFd pidfd_;
    bool user_namespace_ = false;
};

}  // namespace sbx::local
