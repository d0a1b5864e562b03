// FNV-1a, 64 bits: a hash whose value is fixed by its definition, for keys that are stored
// (the stub cache) or seeds that must repeat across builds — std::hash promises neither.
#pragma once

#include <cstdint>
#include <string_view>

namespace sbx {

constexpr uint64_t fnv1a64(std::string_view text) {
    uint64_t hash = 0xcbf29ce484222325ULL;
    for (const char c : text) {
        hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    }
    return hash;
}

static_assert(fnv1a64("") == 0xcbf29ce484222325ULL && fnv1a64("a") == 0xaf63dc4c8601ec8cULL,
              "fnv1a64 changed");

}  // namespace sbx
