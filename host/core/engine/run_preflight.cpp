// The preflights of `run WORKFLOW`, in the order their failures are most useful.
#include "engine/run_preflight.hpp"

#include <filesystem>

#include "engine/fault_preflight.hpp"
#include "engine/injector_preflight.hpp"
#include "engine/limit_preflight.hpp"
#include "engine/network_safety.hpp"
#include "engine/program_preflight.hpp"

namespace sbx::engine {

void refuse_unrunnable_run(PluginSet &plugins, const config::Settings &settings,
                           const config::Workflow &workflow,
                           const std::vector<presets::Preset> &presets) {
    const std::string state = settings.state_folder().string();
    // A step whose program cannot run would fail every run, and the presets be blamed.
    refuse_missing_programs(plugins, workflow, std::filesystem::current_path());
    // safe_mode that cannot hold here stops now rather than run in the host's network.
    refuse_unsafe_network(plugins, workflow, presets, state);
    refuse_unhandled_faults(presets, refuse_unworkable_faults(plugins, presets, state));
    refuse_limit_downgrades(probe_limit_downgrades(plugins, workflow, presets, state),
                            settings.allow_limit_downgrades);
}

}  // namespace sbx::engine
