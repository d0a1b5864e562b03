// The misused value of one slot for each kind, and the meta entry that says what was done;
// every choice draws only from the Rng passed in, so the order of calls fixes the output.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>

#include <sbx/random.hpp>
#include "kinds.hpp"

namespace sbx_misuse {

using Rng = sbx::SplitMix64;

// The how-manieth misuse of one (kind, slot) pair this is, from a seeded offset: the pair
// walks its candidate values in turn, so its first uses in a batch send different values
// (a list slot's wrong_arity: none, one more, ... rather than none three times).
struct Turn {
    uint64_t offset = 0;  // drawn once per pair
    uint64_t count = 0;   // earlier uses of the pair in this batch
    [[nodiscard]] std::size_t pick(std::size_t n) const {
        return static_cast<std::size_t>((offset % n + count % n) % n);
    }
};

// Replaces the slot's value in `set` (its valid value) with a misuse of `kind`, which must
// apply to `slot`, or removes it (missing_required), and returns the meta entry
// {"kind": ..., details}.
nlohmann::json misuse_slot(Kind kind, const Slot &slot, nlohmann::json &set, const Turn &turn);

// Adds one or two slots no step declares (__extra_1, __extra_2, skipping names in use) to
// `set`, each with {"kind": "extra_slot"} in `meta`.
void add_extra_slots(nlohmann::json &set, nlohmann::json &meta, Rng &rng);

}  // namespace sbx_misuse
