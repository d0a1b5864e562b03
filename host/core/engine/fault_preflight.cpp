// Which faults of the user's presets no loaded plugin makes.
#include "engine/fault_preflight.hpp"

#include <set>

#include "engine/fault_accounting.hpp"
#include "util/errors.hpp"

namespace sbx::engine {

namespace {

// Presets the tool made, not the user: the built-in scenarios and generated presets.
bool is_made_by_the_tool(const presets::Preset &preset) {
    return preset.origin.rfind("built-in scenario ", 0) == 0 ||
           preset.origin.rfind("generated presets", 0) == 0;
}

// The ids of the built-in fault injectors (the handlers of known keys).
bool is_built_in_injector(const std::string &id) {
    static const std::set<std::string> ids = {"network",     "cpu_spike",       "concurrency_spike",
                                              "fault_proxy", "timeout",         "disk_corruption",
                                              "broken_auth", "coverage_capture"};
    return ids.count(id) != 0;
}

}  // namespace

void refuse_unhandled_faults(PluginSet &plugins, const std::vector<presets::Preset> &presets) {
    std::set<std::string> loaded;
    for (const auto &injector : plugins.injectors()) {
        const std::string &id = injector->plugin().id();
        if (!is_built_in_injector(id)) {
            return;  // it may act on any key; the runs' accounting says what happened
        }
        loaded.insert(id);
    }
    for (const auto &preset : presets) {
        if (is_made_by_the_tool(preset)) {
            continue;
        }
        for (const auto &fault : environment_faults(preset)) {
            const std::string handler = built_in_handler(fault);
            if (handler.empty() || handler.rfind("the ", 0) == 0 || loaded.count(handler) != 0) {
                continue;
            }
            std::string message = preset.origin;
            message.append(": preset '")
                .append(preset.name)
                .append("' asks for ")
                .append(fault)
                .append(", but no loaded plugin makes that fault: the built-in '")
                .append(handler)
                .append(
                    "' injector does; list it in injectors: (or leave the key out of the "
                    "preset)");
            throw InputError(message);
        }
    }
}

}  // namespace sbx::engine
