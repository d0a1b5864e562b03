// SplitMix64 and an unbiased bounded draw: the random source of `presets generate`.
// Hand-written because the <random> distributions differ between standard libraries.
#pragma once

#include <cstdint>

namespace sbx::presets {

// SplitMix64's output function (Steele, Lea, Flood 2014), constants as published. Part of
// the reproducibility contract: changing it changes every preset a recorded seed produced.
constexpr uint64_t splitmix64(uint64_t x) {
    uint64_t z = x + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31U);
}

// Pinned, so a change to the function cannot slip by unnoticed (the same value as the
// stubs' copy in plugins/stubs/common/splitmix64.hpp).
static_assert(splitmix64(0) == 0xE220A8397B1DCDAFULL, "splitmix64 changed");

// A SplitMix64 stream: the state starts at the seed and advances by the golden gamma.
class SplitMix64 {
  public:
    explicit SplitMix64(uint64_t seed) : state_(seed) {}

    uint64_t next() {
        const uint64_t value = splitmix64(state_);
        state_ += 0x9E3779B97F4A7C15ULL;
        return value;
    }

    // Uniform in [0, n) for n > 0. Draws in the last, partial block of n values below 2^64
    // are rejected and drawn again, so no value is favoured; the expected number of draws
    // is below 2 for any n, and exactly 1 with overwhelming probability for small n.
    uint64_t below(uint64_t n) {
        const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
        uint64_t x = next();
        while (x >= limit) {
            x = next();
        }
        return x % n;
    }

  private:
    uint64_t state_;
};

}  // namespace sbx::presets
