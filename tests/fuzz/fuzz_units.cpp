// Units users write in settings and presets (util/units.hpp): every text is a quantity or a
// UnitError, and every quantity the formatters print parses back.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "util/units.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    try {
        const uint64_t bytes = sbx::parse_size_bytes(text);
        // Rounded to two decimals, so only parsing back is promised, not the same value.
        sbx::parse_size_bytes(sbx::format_size(bytes));
    } catch (const sbx::UnitError &) {
    }
    try {
        const double seconds = sbx::parse_duration_seconds(text);
        sbx::parse_duration_seconds(sbx::format_duration(seconds));
        if (seconds > 0) {
            sbx::timeout_milliseconds(seconds);
        }
    } catch (const sbx::UnitError &) {
    }
    try {
        sbx::parse_bandwidth_bits_per_second(text);
    } catch (const sbx::UnitError &) {
    }
    try {
        sbx::parse_fraction(text);
    } catch (const sbx::UnitError &) {
    }
    return 0;
}
