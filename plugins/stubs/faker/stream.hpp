// The faker stub's streams: every value draws from a SplitMix64 stream keyed by what it
// belongs to — (seed, slot name, input set) and below that a JSON field's name or an array
// position — so adding a slot or a field changes no other value.
#pragma once

#include <cstdint>
#include <string_view>

#include <sbx/random.hpp>

namespace sbx_faker {

// The key of the stream of `salt` under `key`. Part of the replay contract.
constexpr uint64_t mix(uint64_t key, uint64_t salt) {
    return sbx::splitmix64(key ^ sbx::splitmix64(salt));
}

constexpr uint64_t mix(uint64_t key, std::string_view name) {
    return mix(key, sbx::fnv1a64(name));
}

}  // namespace sbx_faker
