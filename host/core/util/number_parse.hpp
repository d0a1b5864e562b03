// The host's one way to read a number from text (settings, variables, options, preset
// values, /proc, sacct): the whole text is the number or the answer is nullopt.
#pragma once

// Rationale: std::from_chars underneath, never stoi/strtol/atoi. Those skip leading spaces,
// stop at the first stray character ("12abc" is 12), read the locale ("0,5"), throw
// std::out_of_range that callers forget, or clamp silently. Each caller words its own error
// around a nullopt, so its messages stay where they are. The plugins' twin, with the same
// grammar, is plugins/support/number_parse.hpp (plugins cannot link the host).

#include <cstdint>
#include <optional>
#include <string_view>

namespace sbx::util {

// Whether a leading '+' is taken ("+3"). Users write one in settings and on the command
// line; refused where the value was always refused with one (SANDBOX_WORKERS, the preset
// checks), so that the host accepts nothing the plugins reading the same value refuse.
enum class LeadingPlus { accepted, refused };

// A decimal whole number that fits int64_t: "42", "-7", "+3"; nullopt for anything else
// (empty, spaces anywhere, trailing characters, "0x10", "1e3", out of range, "+-1").
std::optional<int64_t> parse_int64(std::string_view text, LeadingPlus plus = LeadingPlus::accepted);

// The same without a sign: "0" to 18446744073709551615; "-1" is nullopt, never 2^64 - 1.
std::optional<uint64_t> parse_uint64(std::string_view text,
                                     LeadingPlus plus = LeadingPlus::accepted);

// A finite decimal number: "0.5", "-2", ".5", "1e-3", "+1"; nullopt for anything else
// (empty, spaces, trailing characters, hexadecimal, inf, nan, beyond double's range).
std::optional<double> parse_double(std::string_view text, LeadingPlus plus = LeadingPlus::accepted);

// Octal digits only ("040", mountinfo's escape of a space); nullopt for anything else.
std::optional<uint64_t> parse_octal(std::string_view text);

}  // namespace sbx::util
