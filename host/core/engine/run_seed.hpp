// The seed of one run's fault schedule, handed to injectors as the run spec's `seed`.
// It depends on the command's seed, the preset and the run's place in its cell — never on
// the workflow or the flag, so a scenario's on-run, its counterfactual and an A/B baseline
// meet the same faults — nor on which worker ran it.
#pragma once

#include <cstdint>
#include <string>

#include <sbx/random.hpp>

namespace sbx::engine {

// FNV-1a of the text, mixed through SplitMix64 with the number.
inline uint64_t mix_seed(uint64_t seed, const std::string &text, uint64_t number) {
    return splitmix64(splitmix64(seed ^ fnv1a64(text)) + number);
}

// Kept below 2^63: a plugin may read it as a signed 64-bit JSON integer.
constexpr int64_t as_spec_seed(uint64_t seed) {
    return static_cast<int64_t>(seed >> 1);
}

// Run `repetition` of a cell under `preset` for a command run with `command_seed`.
inline uint64_t run_seed(int64_t command_seed, const std::string &preset, int repetition) {
    return mix_seed(static_cast<uint64_t>(command_seed), preset, static_cast<uint64_t>(repetition));
}

}  // namespace sbx::engine
