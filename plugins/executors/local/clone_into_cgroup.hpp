// clone3 for the warm sandbox's zygote: the target made inside its cgroup v2 folder from its
// first instruction (CLONE_INTO_CGROUP, Linux 5.7), instead of moving itself there with a
// write to cgroup.procs. A move takes the cgroup hierarchy's threadgroup lock and, where the
// kernel must then wait for an RCU grace period, stalls the start; gVisor cut `runsc do`
// from 100 to 69 ms with this change alone.
#pragma once

#include "support/child_stack.hpp"

namespace sbx::local {

// Makes `fn(arg)` a child that shares our memory (CLONE_VM) while we wait for its execve or
// exit (CLONE_VFORK), runs on `stack`, has its pidfd stored in `*pidfd`, sends SIGCHLD when
// it ends and starts as a member of the cgroup whose folder `cgroup_folder` is open. The
// child exits with what `fn` returns. Returns the child's PID, or -errno when it was not
// made: then the caller makes it the old way (clone, and a write to cgroup.procs), which
// says what is wrong if anything is (-ENOSYS: no clone3; -E2BIG or -EINVAL: no
// CLONE_INTO_CGROUP; -ENOSYS too on an architecture this file has no entry code for).
// Raw system calls only: the host may run beside us.
long clone_vfork_into_cgroup(int (*fn)(void *), void *arg, const support::ChildStack &stack,
                             int cgroup_folder, int *pidfd);

}  // namespace sbx::local
