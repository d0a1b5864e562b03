// The checks of a scenario matrix before it runs, in the order their errors are worth most.
#include "engine/scenario_preflight.hpp"

#include <filesystem>

#include "engine/fault_preflight.hpp"
#include "engine/injector_preflight.hpp"
#include "engine/limit_preflight.hpp"
#include "engine/network_safety.hpp"
#include "engine/program_preflight.hpp"

namespace sbx::engine {

void refuse_unrunnable_scenarios(PluginSet &plugins, const config::Settings &settings,
                                 const config::Workflow &workflow, const config::Workflow *baseline,
                                 const std::vector<presets::Preset> &scenarios) {
    const std::string state_folder = settings.state_folder().string();
    // A step whose program cannot run would fail every run, and the faults be blamed.
    refuse_missing_programs(plugins, workflow, std::filesystem::current_path());
    // safe_mode that cannot hold here stops now rather than run in the host's network.
    refuse_unsafe_network(plugins, workflow, scenarios, state_folder);
    if (baseline != nullptr) {
        refuse_unsafe_network(plugins, *baseline, scenarios, state_folder);
    }
    refuse_unhandled_faults(scenarios, refuse_unworkable_faults(plugins, scenarios, state_folder));
    if (baseline != nullptr) {
        refuse_missing_programs(plugins, *baseline, std::filesystem::current_path());
    }
    // A limit that cannot hold as asked stops here.
    refuse_limit_downgrades(probe_limit_downgrades(plugins, workflow, scenarios, state_folder),
                            settings.allow_limit_downgrades);
}

}  // namespace sbx::engine
