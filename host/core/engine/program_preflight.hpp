// Before any run: every step's program must be one the sandbox can find and execute. A step
// whose program does not exist would otherwise run the whole matrix, fail every run, and
// have its failures read as the faults' doing.
#pragma once

#include <filesystem>

#include "config/settings.hpp"
#include "engine/plugin_set.hpp"

namespace sbx::engine {

// Throws InputError (exit 2) naming the step, where it was written, the program and where
// it was looked for, when a step's literal program item (no {{input.*}} template) cannot be
// executed as the executor will look for it: a relative path from `invocation_dir`, a bare
// name on the target's PATH (the step's `env: PATH`, else the host's). Checked for the
// workflows that run on the `local` executor, which sees the host's files; a container or a
// guest has its own.
void refuse_missing_programs(PluginSet &plugins, const config::Workflow &workflow,
                             const std::filesystem::path &invocation_dir);

}  // namespace sbx::engine
