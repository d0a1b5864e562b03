// 64-bit digests written as the 16 hex digits every key and file of the host uses (the
// stub cache's request hash, a Slurm plan's digest, a job folder's tag).
#pragma once

#include <sbx/random.hpp>

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace sbx::util {

// `value` as 16 lowercase hex digits.
inline std::string hex16(uint64_t value) {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
    return text;
}

// FNV-1a of `text` as 16 hex digits: a stable key, not a secure hash.
inline std::string fnv1a_hex(std::string_view text) {
    return hex16(fnv1a64(text));
}

}  // namespace sbx::util
