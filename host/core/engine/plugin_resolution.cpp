// Resolving a matrix's plugins up front.
#include "engine/plugin_resolution.hpp"

#include "engine/input_generation.hpp"

namespace sbx::engine {

void resolve_plugins_for(PluginSet &plugins, const std::vector<const config::Workflow *> &workflows,
                         const std::vector<presets::Preset> &presets) {
    for (const auto *workflow : workflows) {
        (void)plugins.executor_for(*workflow);
        for (const auto &preset : presets) {
            (void)plugins.executor_for(*workflow, &preset);  // a VM preset's executor, say
        }
    }
    for (const auto &preset : presets) {
        // Each link of a chain ("faker,misuse" or a list), or of what FAILURE_MODES imply.
        const auto chosen = preset_strategies(preset);
        for (const auto &id : chosen.ids) {
            (void)plugins.stub(id, chosen.where);
        }
    }
}

}  // namespace sbx::engine
