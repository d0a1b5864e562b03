// A string hash that is the same on every platform, compiler and library version (FNV-1a,
// 64 bits), for seeding per-name streams. std::hash is neither specified nor stable.
#pragma once

#include <cstdint>
#include <string_view>

namespace sbx_stubs {

// FNV-1a over the bytes of `text`, offset basis and prime as published (Fowler, Noll, Vo).
// Part of the replay contract of every strategy that keys a stream by a name.
constexpr uint64_t fnv1a64(std::string_view text) {
    uint64_t hash = 0xCBF29CE484222325ULL;
    for (const char c : text) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001B3ULL;
    }
    return hash;
}

static_assert(fnv1a64("") == 0xCBF29CE484222325ULL, "fnv1a64 changed");
static_assert(fnv1a64("a") == 0xAF63DC4C8601EC8CULL, "fnv1a64 changed");

}  // namespace sbx_stubs
