// The fixed integer hash that turns a run's seed into the hostile stub's starting offset.
// Written out by hand because std::hash and the <random> distributions differ by library.
#pragma once

#include <cstdint>

namespace sbx_hostile {

// SplitMix64's finalizer (Steele, Lea, Flood 2014), constants as published. Part of the
// replay contract: changing it changes which payload every recorded seed produced.
constexpr uint64_t splitmix64(uint64_t x) {
    uint64_t z = x + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31U);
}

// Pinned values, so a change to the function cannot slip by unnoticed.
static_assert(splitmix64(0) == 0xE220A8397B1DCDAFULL, "splitmix64 changed");

}  // namespace sbx_hostile
