// Before any run: a fault a user's own preset asks for must have a loaded plugin to make it.
// A preset the user wrote that sets NETWORK_LATENCY_MS with no network injector loaded would
// otherwise run its whole matrix and report a verdict on a fault that never happened.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "presets/preset.hpp"

namespace sbx::engine {

// What the loaded injectors said of one preset when probed (engine/injector_preflight).
struct FaultClaims {
    std::set<std::string> claimed;  // the preset's keys and failure modes some injector makes
    // Injectors that will act on the preset without saying on which keys (no "claims" in
    // their answer, or a probe that failed for a reason the runs will report): they may
    // make any fault, so nothing of this preset is refused.
    std::vector<std::string> unspecific;
};

// Throws InputError (exit 2) for the first preset the user wrote (in a file, the settings or
// the environment; not a built-in scenario or a generated preset) that asks for a fault no
// loaded injector claims, naming the preset, the key and the built-in injector that makes
// it. `claims` holds one entry per preset, in the same order. The tool's own presets are
// left to the runs (such a scenario is not applicable, with the same reason). Limits are
// the executor's and CONCURRENCY_LEVEL the host's: never refused here.
void refuse_unhandled_faults(const std::vector<presets::Preset> &presets,
                             const std::vector<FaultClaims> &claims);

}  // namespace sbx::engine
