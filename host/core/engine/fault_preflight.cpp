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

}  // namespace

void refuse_unhandled_faults(const std::vector<presets::Preset> &presets,
                             const std::vector<FaultClaims> &claims) {
    for (size_t i = 0; i < presets.size() && i < claims.size(); ++i) {
        const presets::Preset &preset = presets[i];
        if (is_made_by_the_tool(preset) || !claims[i].unspecific.empty()) {
            continue;
        }
        for (const auto &fault : environment_faults(preset)) {
            const std::string handler = built_in_handler(fault);
            if (handler.rfind("the ", 0) == 0 || claims[i].claimed.count(fault) != 0) {
                continue;  // the executor's limits, the host's copies; or claimed
            }
            std::string message = preset.origin;
            message.append(": preset '")
                .append(preset.name)
                .append("' asks for ")
                .append(fault)
                .append(", but no loaded injector claims that fault: the built-in '")
                .append(handler)
                .append(
                    "' injector makes it; list it in injectors: (or leave the key out of the "
                    "preset)");
            throw InputError(message);
        }
    }
}

}  // namespace sbx::engine
