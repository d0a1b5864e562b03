// One random value per slot type for the random stub; every value draws only from the
// Rng passed in, so the order of calls fixes the output.
#pragma once

#include <nlohmann/json.hpp>

#include "splitmix64.hpp"

namespace sbx_random {

using sbx_stubs::Rng;

// A random value for `slot` ({type, min, max, values, ...}). Throws sbx::Error
// (SBX_INVALID) when the slot's bounds cannot be honoured.
nlohmann::json random_value(const nlohmann::json &slot, Rng &rng);

}  // namespace sbx_random
