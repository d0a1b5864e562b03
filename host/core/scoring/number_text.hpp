// Strict reading of numbers that users write in environment variables and YAML files for
// the scores: the whole text must be the number, or the caller reports what to write.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace sbx::scoring {

// A finite decimal number such as 0.5, -2, +1e-3; nullopt for anything else (empty text,
// spaces, trailing characters, inf, nan, hexadecimal, out of range).
std::optional<double> parse_finite_number(std::string_view text);

// A whole number such as 3 or +3 that fits in int64_t; nullopt for anything else.
std::optional<int64_t> parse_whole_number(std::string_view text);

}  // namespace sbx::scoring
