// Units users write in settings and presets (util/units.hpp): every text is a quantity or a
// UnitError, and every quantity the formatters print parses back (a UnitError there
// escapes the harness: a finding).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "util/units.hpp"

namespace {

template <class Parse>
auto parsed(Parse parse, std::string_view text) -> std::optional<decltype(parse(text))> {
    try {
        return parse(text);
    } catch (const sbx::UnitError &) {
        return std::nullopt;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    if (const auto bytes = parsed(sbx::parse_size_bytes, text)) {
        // Rounded to two decimals, so only parsing back is promised, not the same value.
        sbx::parse_size_bytes(sbx::format_size(*bytes));
    }
    if (const auto seconds = parsed(sbx::parse_duration_seconds, text)) {
        sbx::parse_duration_seconds(sbx::format_duration(*seconds));
        if (*seconds > 0) {
            sbx::timeout_milliseconds(*seconds);
        }
    }
    parsed(sbx::parse_bandwidth_bits_per_second, text);
    parsed(sbx::parse_fraction, text);
    return 0;
}
