// Draws and hashes that are the same on every platform, compiler and library version:
// SplitMix64 (a stream with unbiased range helpers) and FNV-1a (64 bits) for keying streams
// by a name. std::hash and the <random> distributions promise neither, and a recorded seed
// must replay the same inputs and faults anywhere. Header-only, free of any library.
#pragma once

#include <cstdint>
#include <string_view>

namespace sbx {

// SplitMix64's output function (Steele, Lea, Flood 2014), constants as published. Part of
// the replay contract: changing it changes every value a recorded seed produced.
constexpr uint64_t splitmix64(uint64_t x) {
    uint64_t z = x + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31U);
}

// Pinned, so a change to the function cannot slip by unnoticed.
static_assert(splitmix64(0) == 0xE220A8397B1DCDAFULL, "splitmix64 changed");

// FNV-1a over the bytes of `text`, offset basis and prime as published (Fowler, Noll, Vo).
constexpr uint64_t fnv1a64(std::string_view text) {
    uint64_t hash = 0xCBF29CE484222325ULL;
    for (const char c : text) {
        hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001B3ULL;
    }
    return hash;
}

static_assert(fnv1a64("") == 0xCBF29CE484222325ULL && fnv1a64("a") == 0xAF63DC4C8601EC8CULL,
              "fnv1a64 changed");

// A SplitMix64 stream: the state starts at the seed and advances by the golden gamma; each
// draw is splitmix64 of the state before the step.
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

}  // namespace sbx
