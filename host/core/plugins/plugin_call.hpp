// The calls of the kind interfaces, by name: what an isolated plugin is asked over its
// channel, and what an error message says was running when a plugin failed.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace sbx::plugins {

enum class PluginCall : uint8_t {
    run,
    prepare,
    teardown,
    sweep,
    generate,
    collect,
    predict,
    tally
};

// "run", "prepare", ...: the names the ABI gives these functions.
constexpr const char *call_name(PluginCall call) {
    constexpr const char *kNames[] = {"run",      "prepare", "teardown", "sweep",
                                      "generate", "collect", "predict",  "tally"};
    return kNames[static_cast<uint8_t>(call)];
}

constexpr std::optional<PluginCall> call_from_byte(uint8_t byte) {
    if (byte > static_cast<uint8_t>(PluginCall::tally)) {
        return std::nullopt;
    }
    return static_cast<PluginCall>(byte);
}

}  // namespace sbx::plugins
