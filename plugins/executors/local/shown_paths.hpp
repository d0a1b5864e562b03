// The host paths a sandboxed target must see at their own place for the step to run as it
// does natively. `readonly` hides /tmp and /dev/shm behind private ones, and quick trials, CI
// runners and build trees often live there: a script named in argv, the program's own folder,
// a preload shim or the settings folder would vanish, and the step would fail for a reason
// that is the sandbox's. A `minimal` target sees only what it is given: there the spec's own
// `show` entries join its binds.
#pragma once

#include <string>
#include <vector>

#include "support/filesystem_mode.hpp"
#include "support/run_spec.hpp"

namespace sbx::local {

// The paths to attach in the run's view, parents before what lies inside them, none inside
// the workspace (shown anyway) and none twice:
//   readonly: the spec's `show` entries, the program, every absolute argument (or option
//             value after '=') and LD_PRELOAD entry that exists, each where the private
//             /tmp or /dev/shm hides it, or
//             anywhere when writable. A file is shown with its folder (a script's modules
//             sit beside it), unless that folder is /tmp or /dev/shm itself;
//             Where a path leads through a symbolic link, where it leads is shown too;
//   minimal:  the spec's `show` entries (its binds are attached already);
//   host:     none.
// `environment` is the target's, as NAME=VALUE. Throws sbx::Error(SBX_INVALID) when more
// than support::kMaxBinds paths would be needed, naming the first ones and the fix.
std::vector<support::BindPath> shown_paths(const support::RunSpec &spec, const std::string &program,
                                           const std::vector<std::string> &environment,
                                           const std::string &workspace);

}  // namespace sbx::local
