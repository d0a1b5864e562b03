// A wrong credential of the same shape: every letter and digit replaced by another of its
// kind (a-z, A-Z, 0-9), everything else kept, so length, alphabet and separators still
// pass a format check and only the value itself is wrong.
#pragma once

#include <sbx/random.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace sbx::broken_auth {

// `value` garbled with draws from `state`. Every letter and digit changes; a value with
// none (empty, punctuation only) comes back equal, which the caller reports.
std::string garble(const std::string &value, sbx::SplitMix64 &random);

// True when the name matches one of the shell patterns (fnmatch, case-insensitive).
bool matches_any(const std::string &name, const std::vector<std::string> &patterns);

}  // namespace sbx::broken_auth
