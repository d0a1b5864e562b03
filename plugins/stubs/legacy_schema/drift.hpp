// Schema drift of one JSON object: which fields mismatch (an exact quota per block of
// checks) and how (renamed, dropped, retyped, added), each change described for the meta.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include <sbx/random.hpp>

namespace sbx_legacy {

using Rng = sbx::SplitMix64;

// Chooses exactly `mismatches` of every `checks` consecutive checks, at seeded positions
// (Knuth's selection sampling), so the rate holds over any whole number of blocks.
class Quota {
  public:
    Quota(uint64_t mismatches, uint64_t checks) : mismatches_(mismatches), checks_(checks) {}

    bool next(Rng &rng) {
        if (left_checks_ == 0) {
            left_checks_ = checks_;
            left_mismatches_ = mismatches_;
        }
        const bool hit = rng.below(left_checks_) < left_mismatches_;
        --left_checks_;
        left_mismatches_ -= hit ? 1 : 0;
        return hit;
    }

  private:
    uint64_t mismatches_;
    uint64_t checks_;
    uint64_t left_checks_ = 0;
    uint64_t left_mismatches_ = 0;
};

// Drifts the fields of `object` in place, one quota check per field in key order, and
// returns the changes made, as [{field, change, ...}].
nlohmann::json drift_object(nlohmann::json &object, Quota &quota, Rng &rng);

// One change outside the quota, marked "forced", for an input set the quota left
// untouched: a random field's change, or an added field when the object is empty.
nlohmann::json force_change(nlohmann::json &object, Rng &rng);

}  // namespace sbx_legacy
