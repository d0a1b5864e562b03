// The preset keys adapt-presets steps, each on a ladder of settings from mildest to
// harshest (docs/semantics.md "Adapting presets"): the random presets' own pools, so an
// adapted preset never leaves the range a generated one could have.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sbx::presets {

enum class Step { milder = -1, keep = 0, harsher = 1 };

const char *step_name(Step step);  // "milder", "keep", "harsher"
// The inverse of step_name: false for any other text.
bool parse_step(const std::string &text, Step &step);

struct Ladder {
    std::string key;
    std::vector<std::string> rungs;  // mildest first
};

// CPU_LIMIT, MEMORY_LIMIT, BANDWIDTH_LIMIT, NETWORK_LATENCY_MS, THREAT_INTENSITY, in this
// order (the order decisions are made and printed in).
const std::vector<Ladder> &ladders();

// What one step did to a preset.
struct StepResult {
    bool changed = false;
    std::string from, to;  // the key's text before and after ("" when the preset lacks it)
    std::string note;      // why nothing changed: absent key, already at the end
};

// Moves `key` of `preset` one rung in the direction of `step`: to the nearest rung beyond
// the current value (a hand-written value between rungs moves to the next one). A key the
// preset does not set is left out (adapting never adds a fault); at the ladder's end it
// stays. Stepping BANDWIDTH_LIMIT keeps MIN_BANDWIDTH <= BANDWIDTH_LIMIT <= MAX_BANDWIDTH by
// moving whichever bound it crossed. A value the ladder cannot read is left as it is.
StepResult step_key(nlohmann::json &preset, const Ladder &ladder, Step step);

}  // namespace sbx::presets
