// The warm sandbox's zygote: PID 1 of a worker's own PID namespace, in a mount namespace
// where the run's view of the filesystem was built once. It starts one run at a time on the
// host's word, ends everything the run started once the target has ended, and gives the
// next run a fresh /tmp and /dev/shm. It shares the host's memory and descriptor table
// (clone(CLONE_VM | CLONE_FILES)): the host writes a run into the block and the run's
// descriptors are already where the target will copy them from.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <cstddef>
#include <cstdint>

#include "launch_block.hpp"
#include "mount_view.hpp"

namespace sbx::local {

// Values of ZygoteBlock::command, the futex word the zygote waits on between runs.
inline constexpr std::uint32_t kZygoteIdle = 0;
inline constexpr std::uint32_t kZygoteRun = 1;

// launch.phase, after the start's kPhaseLaunching and kPhaseReported: the zygote is ready
// for a run (after its set-up, and after every run once nothing of it is left). 0: the
// zygote has ended (CLONE_CHILD_CLEARTID).
inline constexpr pid_t kPhaseIdle = 3;

inline constexpr std::size_t kMaxScratchFolders = 64;

// Shared by the host and the zygote, allocated by the host and kept until the zygote is
// reaped. Plain data only: the zygote must not call into the C++ runtime.
struct ZygoteBlock {
    // The run being started (its request, limits and cgroups), the report fields, and the
    // stacks: init_stack is the zygote's, target_stack every target's in turn.
    LaunchBlock launch;
    // The view built at set-up (null: no mount namespace), and what to renew before a run.
    const MountView *view = nullptr;
    ScratchPlan scratch;
    alignas(4) std::uint32_t command = kZygoteIdle;
    // The running target's pidfd (made in the shared descriptor table; the host closes it).
    volatile int target_pidfd = -1;
    // /proc/self/mountinfo of the zygote's mount namespace, polled for changes; closed by
    // the host once the zygote has ended.
    volatile int mounts_fd = -1;
    // Set by the zygote when the run changed its mount namespace (a target with
    // CAP_SYS_ADMIN mounted or unmounted something): the next run must not see it, so the
    // host makes a new sandbox.
    volatile bool retired = false;
    // The scratch folders' attributes when last fresh (ScratchPlan::folders; the host
    // plans at most kMaxScratchFolders).
    struct stat scratch_attributes[kMaxScratchFolders] = {};
};

// The zygote's main: set-up (user namespace maps, the view), then runs until killed.
int run_zygote(void *zygote_block);

}  // namespace sbx::local
