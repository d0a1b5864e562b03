// The plugins' one way to read a number from text (preset values, configuration, state file
// names, cgroup and /proc files, the guest's lines): the whole text is the number or nothing.
#pragma once

// Rationale: the twin of the host's util/number_parse (plugins cannot link the host), with
// the same grammar, so that a preset value the host's checks accept reads the same here.
// std::from_chars underneath, never stoi/strtol/atoi, which skip spaces, stop at the first
// stray character ("12abc" is 12), read the locale, wrap "-1" to 2^64 - 1 or throw what
// callers forget to catch. Each caller words its own error around a nullopt.
// Header-only, on the standard library alone, so that any program of a plugin can include
// it: the qemu guest agent (a static binary) and the tests that compile its sources too.

#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>

namespace sbx::support {

// Whether a leading '+' is taken ("+3"): refused where the host's check of the same preset
// key refuses it, so that both sides agree on what is a number.
enum class LeadingPlus { accepted, refused };

namespace number_parse_detail {

// from_chars takes no '+'. Only a '+' before the number goes: "+-1" keeps it, an error.
inline std::string_view without_plus(std::string_view text, LeadingPlus plus) {
    if (plus == LeadingPlus::accepted && text.size() > 1 && text.front() == '+' && text[1] != '-' &&
        text[1] != '+') {
        text.remove_prefix(1);
    }
    return text;
}

template <typename Number>
std::optional<Number> whole_text(std::string_view text) {
    Number value{};
    const char *end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || error != std::errc() || stop != end) {
        return std::nullopt;
    }
    return value;
}

}  // namespace number_parse_detail

// A decimal whole number that fits int64_t: "42", "-7", "+3"; nullopt for anything else
// (empty, spaces anywhere, trailing characters, "0x10", "1e3", out of range, "+-1").
inline std::optional<std::int64_t> parse_int64(std::string_view text,
                                               LeadingPlus plus = LeadingPlus::accepted) {
    return number_parse_detail::whole_text<std::int64_t>(
        number_parse_detail::without_plus(text, plus));
}

// The same without a sign: "0" to 18446744073709551615; "-1" is nullopt, never 2^64 - 1.
inline std::optional<std::uint64_t> parse_uint64(std::string_view text,
                                                 LeadingPlus plus = LeadingPlus::accepted) {
    return number_parse_detail::whole_text<std::uint64_t>(
        number_parse_detail::without_plus(text, plus));
}

// A finite decimal number: "0.5", "-2", ".5", "1e-3", "+1"; nullopt for anything else
// (empty, spaces, trailing characters, hexadecimal, inf, nan, beyond double's range).
inline std::optional<double> parse_double(std::string_view text,
                                          LeadingPlus plus = LeadingPlus::accepted) {
    text = number_parse_detail::without_plus(text, plus);
    double value = 0;
    const char *end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || error != std::errc() || stop != end || !std::isfinite(value)) {
        return std::nullopt;
    }
    return value;
}

}  // namespace sbx::support
