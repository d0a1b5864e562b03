// Strict number parsing on std::from_chars, which (unlike strtod) ignores the locale and
// never skips leading spaces, so "0,5" and " 1" are rejected instead of misread.
#include "scoring/number_text.hpp"

#include <charconv>
#include <cmath>

namespace sbx::scoring {

namespace {

// from_chars does not take a leading '+', which users write; "+-1" keeps its '+' and so
// stays an error.
std::string_view without_plus(std::string_view text) {
    if (text.size() > 1 && text.front() == '+' && text[1] != '-' && text[1] != '+') {
        text.remove_prefix(1);
    }
    return text;
}

}  // namespace

std::optional<double> parse_finite_number(std::string_view text) {
    text = without_plus(text);
    double value = 0;
    const char *end = text.data() + text.size();
    auto [stop, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || error != std::errc() || stop != end || !std::isfinite(value)) {
        return std::nullopt;
    }
    return value;
}

std::optional<int64_t> parse_whole_number(std::string_view text) {
    text = without_plus(text);
    int64_t value = 0;
    const char *end = text.data() + text.size();
    auto [stop, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || error != std::errc() || stop != end) {
        return std::nullopt;
    }
    return value;
}

}  // namespace sbx::scoring
