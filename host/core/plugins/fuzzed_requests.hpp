// Fuzzed requests for `plugins verify`: requests a real host could send, with the free
// parts drawn at random from a seed — a target's hostile stdout and stderr, user-chosen
// names, series of any length, unknown fields a later host may add. A plugin must answer
// each with SBX_OK and an answer that keeps its contract. Seeded, so a verdict replays.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

namespace sbx::plugins {

// A `collect` request of phase "run" or "cell" (as `phase` says).
nlohmann::json fuzzed_collect(const std::string &phase, uint64_t seed);
// A `predict` request for the ROI of a cell: 1 to 200 points in [0, 1] with timestamps.
nlohmann::json fuzzed_predict(uint64_t seed);
// A `generate` request: 1 to 8 sets over 0 to 5 slots of every type.
nlohmann::json fuzzed_generate(uint64_t seed);

}  // namespace sbx::plugins
