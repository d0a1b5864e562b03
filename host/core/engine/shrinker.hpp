// Shrinking a failing run: the smallest inputs and the fewest fault keys with which it
// still fails the same way, found by delta debugging (engine/ddmin.hpp) under a budget of
// runs. The caller says what "the same way" is and runs the candidates: `shrink` runs
// each one as a recorded run; run-scenarios may use a smaller budget.
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sbx::engine {

// True when the run with these inputs under this preset body fails the same way as the
// original. Called at most `max_runs` times; never twice for the same candidate.
using FailsTheSameWay =
    std::function<bool(const nlohmann::json &inputs, const nlohmann::json &preset_body)>;

struct ShrinkResult {
    bool reproducible = false;  // the original inputs and preset failed the same way again
    bool minimal = false;       // 1-minimal; false: the budget ran out first
    int runs = 0;               // calls of the predicate, the original's included
    nlohmann::json inputs;      // the smallest failing inputs found
    nlohmann::json preset_body;
    // What left the preset: "API_LATENCY_MS", "FAILURE_MODES: cpu_spike".
    std::vector<std::string> removed_fault_keys;
    // Per json slot shrunk toward its example: the fewest changes of the example that still
    // fail ("admin false→true"); that slot's value is the example with just those. When the
    // budget ran out inside, the changes of the last failing candidate (fewer, maybe not the
    // fewest).
    std::map<std::string, std::vector<std::string>> broken_by;
};

// Tries the original first (a failure that does not come back cannot be shrunk). A json slot
// with an example in `examples` (engine/example_diff.hpp) whose value is a document is then
// shrunk toward that example: ddmin over the changes from the example, the result being the
// example with the fewest changes that still fail, not shrunk further. Then it alternates
// between the fault keys and the other inputs until a whole round removes nothing.
// Every slot of `inputs` stays (a template needs it); its value shrinks. Kept in the
// preset: its name, stub strategy and environment choice (SCENARIO_NAME,
// SANDBOX_STUB_STRATEGY, OS_TYPE, ...), and the FAILURE_MODES entries that say how the
// inputs were made (hostile_input, ...): they decide how the run is scored.
ShrinkResult shrink_failure(const nlohmann::json &inputs, const nlohmann::json &preset_body,
                            const FailsTheSameWay &fails_the_same_way, int max_runs,
                            const std::map<std::string, nlohmann::json> &examples = {});

// The key under which the shrinker remembers a tried candidate; equal for equal candidates.
std::string candidate_key(const nlohmann::json &inputs, const nlohmann::json &preset_body);

// The size of an input set as its target receives it: the sum of engine::value_size over
// its slots.
size_t inputs_size(const nlohmann::json &inputs);

}  // namespace sbx::engine
