// Which namespaces a run gets: the best way the kernel allows, found once per process and
// kept, shared by the cold start (spawn.cpp) and the warm sandboxes (warm_sandbox.cpp).
//   1. PID (+ mount) namespaces made directly: root, or CAP_SYS_ADMIN;
//   2. the same inside a new user namespace mapping the caller's ids: any user, where
//      unprivileged user namespaces are enabled (most distributions);
//   3. no namespace: the init leads a session that is killed at the end.
#pragma once

namespace sbx::local {

enum class Tier : int { kNamespaces, kUserNamespace, kProcessGroup };

// The best tier the kernel granted so far; later runs start there.
Tier current_tier();

// True when clone() failed with `error` because the kernel refused the namespaces (rather
// than for want of memory or processes): the next tier may work.
bool refused_by_kernel(int error);

// `tier` was refused with `error`: later runs start one tier lower (said once, in the log).
// Returns the next tier.
Tier step_down_from(Tier tier, int error);

}  // namespace sbx::local
