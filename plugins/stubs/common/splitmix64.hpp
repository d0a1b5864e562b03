// SplitMix64 for the built-in stub strategies: the seed hash and a stream with range helpers.
// Hand-written because std::hash and the <random> distributions differ between libraries.
#pragma once

#include <cstdint>

namespace sbx_stubs {

// SplitMix64's step (Steele, Lea, Flood 2014), constants as published. Part of the replay
// contract: changing it changes every value a recorded seed produced.
constexpr uint64_t splitmix64(uint64_t x) {
    uint64_t z = x + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31U);
}

// Pinned values, so a change to the function cannot slip by unnoticed.
static_assert(splitmix64(0) == 0xE220A8397B1DCDAFULL, "splitmix64 changed");

// A SplitMix64 stream.
class Rng {
  public:
    explicit Rng(uint64_t seed) : state_(seed) {}

    uint64_t next() {
        const uint64_t value = splitmix64(state_);
        state_ += 0x9E3779B97F4A7C15ULL;
        return value;
    }

    // Uniform in [0, n) for n > 0, by rejection so no value is favoured.
    uint64_t below(uint64_t n) {
        const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
        uint64_t x = next();
        while (x >= limit) {
            x = next();
        }
        return x % n;
    }

    // Uniform in [lo, hi], lo <= hi, over the whole int64 range without overflow.
    int64_t between(int64_t lo, int64_t hi) {
        const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
        const uint64_t offset = span == UINT64_MAX ? next() : below(span + 1);
        return static_cast<int64_t>(static_cast<uint64_t>(lo) + offset);
    }

    // Uniform in [0, 1) with 53 random bits, the precision of a double.
    double unit() { return static_cast<double>(next() >> 11U) * 0x1.0p-53; }

  private:
    uint64_t state_;
};

}  // namespace sbx_stubs
