// A plugin call from its name, for the commands and tools that take one on their command line.
#pragma once

#include <optional>
#include <string_view>

#include "plugins/plugin_call.hpp"

namespace sbx::plugins {

// The call `name` names ("predict"), or nullopt.
inline std::optional<PluginCall> call_from_name(std::string_view name) {
    for (uint8_t byte = 0; const auto which = call_from_byte(byte); ++byte) {
        if (name == call_name(*which)) {
            return which;
        }
    }
    return std::nullopt;
}

}  // namespace sbx::plugins
