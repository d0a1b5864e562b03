// Whole-text number parsing on std::from_chars, which ignores the locale and never skips
// spaces, so "0,5" and " 1" are refused instead of misread.
#include "util/number_parse.hpp"

#include <charconv>
#include <cmath>

namespace sbx::util {

namespace {

// from_chars takes no '+'. Only a '+' before the number goes: "+-1" and "++1" keep theirs
// and stay errors.
std::string_view without_plus(std::string_view text, LeadingPlus plus) {
    if (plus == LeadingPlus::accepted && text.size() > 1 && text.front() == '+' && text[1] != '-' &&
        text[1] != '+') {
        text.remove_prefix(1);
    }
    return text;
}

template <typename Number>
std::optional<Number> whole_text(std::string_view text, int base = 10) {
    Number value{};
    const char *end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value, base);
    if (text.empty() || error != std::errc() || stop != end) {
        return std::nullopt;
    }
    return value;
}

}  // namespace

std::optional<int64_t> parse_int64(std::string_view text, LeadingPlus plus) {
    return whole_text<int64_t>(without_plus(text, plus));
}

std::optional<uint64_t> parse_uint64(std::string_view text, LeadingPlus plus) {
    return whole_text<uint64_t>(without_plus(text, plus));
}

std::optional<double> parse_double(std::string_view text, LeadingPlus plus) {
    text = without_plus(text, plus);
    double value = 0;
    const char *end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || error != std::errc() || stop != end || !std::isfinite(value)) {
        return std::nullopt;
    }
    return value;
}

std::optional<uint64_t> parse_octal(std::string_view text) {
    return whole_text<uint64_t>(text, 8);
}

}  // namespace sbx::util
