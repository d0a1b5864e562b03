// The misused value of one slot for each kind, and the meta entry that says what was done;
// every choice draws only from the Rng passed in, so the order of calls fixes the output.
#pragma once

#include <nlohmann/json.hpp>

#include "kinds.hpp"
#include "splitmix64.hpp"

namespace sbx_misuse {

using sbx_stubs::Rng;

// Replaces `value` (the slot's valid value, in the input set) with a misuse of `kind`,
// which must apply to `slot`, and returns the meta entry {"kind": ..., details}.
nlohmann::json misuse_slot(Kind kind, const Slot &slot, nlohmann::json &value, Rng &rng);

// Adds one or two slots no step declares (__extra_1, __extra_2, skipping names in use) to
// `set`, each with {"kind": "extra_slot"} in `meta`.
void add_extra_slots(nlohmann::json &set, nlohmann::json &meta, Rng &rng);

}  // namespace sbx_misuse
