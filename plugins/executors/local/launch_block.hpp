// The memory a run's init shares with the host (CLONE_VM): what the init needs to start the
// target, and what it reports back about the target's start and end.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <cstddef>

#include "mount_view.hpp"
#include "spawn.hpp"
#include "support/child_stack.hpp"
#include "support/user_namespace.hpp"

namespace sbx::local {

// What the init or the target did last before it gave up; the host turns it into a message.
enum ChildStep : int {
    kNoFailure = 0,
    kUserNamespace,
    kJoinNetwork,
    kSession,
    kJoinCgroup,
    kPrivateMounts,
    kMountWorkspace,
    kFilesystemView,
    kStartTarget,
    kSetRlimit,
    kChdir,
    kStdio,
    kExec
};
const char *child_step_name(int step);

// Values of LaunchBlock::phase, the futex word the host waits on.
inline constexpr pid_t kPhaseLaunching = 1;  // set by the host before clone()
inline constexpr pid_t kPhaseReported = 2;   // the init published started or failed
// 0: the kernel cleared it when the init ended (CLONE_CHILD_CLEARTID), whatever happened.

// Allocated by the host and kept until the init is reaped: the init and the target run on
// its stacks and write its report fields. Plain data only: the init must not call into the
// C++ runtime.
struct LaunchBlock {
    const SpawnRequest *request = nullptr;
    const ResourceLimit *limits = nullptr;
    std::size_t limit_count = 0;
    const int *cgroup_fds = nullptr;
    std::size_t cgroup_fd_count = 0;
    // Set by the warm sandbox's zygote before it makes the target with CLONE_INTO_CGROUP:
    // the target is in its cgroup from its first instruction and writes no cgroup.procs.
    bool cloned_into_cgroup = false;
    const support::IdMapText *id_maps =
        nullptr;                        // non-null: write these maps (a new user namespace)
    const MountView *mounts = nullptr;  // non-null: build this view (a new mount namespace)
    bool pid_namespace = false;         // false: the init leads a session instead

    support::ChildStack init_stack;
    support::ChildStack target_stack;

    // Written by the init and the target, read by the host after the futex wake.
    alignas(4) pid_t phase = kPhaseLaunching;
    volatile int failed_errno = 0;
    volatile int failed_step = kNoFailure;
    volatile bool target_started = false;
    // Written by the init when it reaped the target, read by the host after reaping the init.
    volatile bool target_ended = false;
    volatile int target_wait_status = 0;
    volatile long max_rss_kb = 0;  // the largest ru_maxrss of everything the init reaped
    // CPU of everything the init reaped, in microseconds (the warm sandbox reports these:
    // its zygote outlives the run, so no wait4 on it can).
    volatile long cpu_user_us = 0;
    volatile long cpu_sys_us = 0;
    // Block I/O of everything the init reaped, in 512-byte units (ru_inblock, ru_oublock).
    volatile long in_blocks = 0;
    volatile long out_blocks = 0;
};

// The init: PID 1 of the run's PID namespace. Prepares the namespaces, starts the target,
// reaps everything, forwards termination signals to the target and records its end.
int run_init(void *launch_block);

// Steps the init and the warm sandbox's zygote share (run_init.cpp).
namespace init_steps {

// Records why the init (or the target) gave up, with errno, and exits 127.
[[noreturn]] void give_up(LaunchBlock *block, int step);
// Every signal's action back to default, for the target to inherit (libc: call it only
// while the host waits).
void default_signal_actions();
// The target's side of its start: a clone(CLONE_VM | CLONE_VFORK) child of the init.
int start_target(void *launch_block);
// Sets `phase` and wakes the host waiting on it. Raw system calls only.
void publish(LaunchBlock *block, pid_t phase);
// Adds a reaped process's CPU to the block's and keeps the largest RSS.
void record_usage(LaunchBlock *block, const rusage &usage);
// Reaps every ended child without waiting, recording the target's end, the largest RSS and
// the CPU summed; true once the target was among them. Raw system calls only.
bool reap_children(LaunchBlock *block, pid_t target);
// Waits for the next signal (all are blocked): SIGCHLD reaps, others go to the target.
// Returns once the target has ended. Raw system calls only.
void serve_until_target_ends(LaunchBlock *block, pid_t target);

}  // namespace init_steps

}  // namespace sbx::local
