// The input sets of one cell: the given ones (`input_stubs:` / SANDBOX_INPUT_STUBS) when
// set, else those of the preset's stub strategy chain (SANDBOX_STUB_STRATEGY, else what its
// FAILURE_MODES imply, else the `stub_strategy` setting), reused from the stub cache when
// the same request was answered before.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/settings.hpp"
#include "engine/plugin_set.hpp"
#include "presets/preset.hpp"
#include "store/store.hpp"

namespace sbx::engine {

struct CellInputs {
    nlohmann::json input_sets = nlohmann::json::array();  // exactly the cell's run count
    // Parallel to input_sets: {strategy id: what that strategy said it did to the set} (its
    // `meta` entry), or null when none said anything.
    nlohmann::json meta = nlohmann::json::array();
    std::string strategy;  // "input_stubs", or the chain as ids joined by ','
    // {strategy id: [category, ...]}: what each strategy said its slots could receive (the
    // `categories` of its answer), for the report of how many the cell tried.
    nlohmann::json categories = nlohmann::json::object();
    bool cached = false;  // taken from the stub cache
};

// The ids of a chain: "faker, misuse" (commas, spaces around ids ignored) or a JSON list of
// ids. Empty ids are dropped; an empty chain is empty.
std::vector<std::string> strategy_chain(const nlohmann::json &value);

// The stub strategies a preset itself chooses, and where (for messages): the chain of its
// SANDBOX_STUB_STRATEGY when set; else the strategies its FAILURE_MODES imply, in their
// order (hostile_input: hostile, user_misuse: misuse, schema_drift: legacy_schema, aliases
// included); else none, and the settings' `stub_strategy` applies.
struct PresetStrategies {
    std::vector<std::string> ids;
    std::string where;
};
PresetStrategies preset_strategies(const presets::Preset &preset);

// The slots of every step of `workflow` (the first declaration of a name wins), as the
// stub request describes them.
nlohmann::json slots_of(const config::Workflow &workflow);

// Throws EnvironmentError when a strategy breaks the ABI (another number of sets, a set
// that is no object) and InputError when the preset names a strategy that is not loaded.
// `cached`: false for inputs asked once and never again (explore's batches), which the stub
// cache would only grow by.
CellInputs generate_cell_inputs(PluginSet &plugins, store::Store &store,
                                const config::Workflow &workflow, const presets::Preset &preset,
                                int count, int64_t seed, bool cached = true);

}  // namespace sbx::engine
