// One random value per slot type for the random stub; every value draws only from the
// Rng passed in, so the order of calls fixes the output.
#pragma once

#include <nlohmann/json.hpp>

#include <sbx/random.hpp>

namespace sbx_random {

using Rng = sbx::SplitMix64;

// A random value for `slot` ({type, min, max, values, ...}). Throws sbx::Error
// (SBX_INVALID) when the slot's bounds cannot be honoured.
nlohmann::json random_value(const nlohmann::json &slot, Rng &rng);

}  // namespace sbx_random
