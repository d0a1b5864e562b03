// Preset JSON (a --preset-file, SANDBOX_PRESET): parsed, named, and its limits resolved as
// a run would. Bad input is an InputError naming the preset; nothing else may escape.
#include <cstddef>
#include <cstdint>
#include <string>

#include "presets/preset.hpp"
#include "util/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string text(reinterpret_cast<const char *>(data), size);
    try {
        auto presets = sbx::presets::parse_presets(text, "fuzz.json");
        sbx::presets::make_names_unique(presets);
        for (const auto &preset : presets) {
            const auto fields = sbx::presets::limit_fields(sbx::presets::resolve_limits(preset));
            const auto environment = sbx::presets::passthrough_environment(preset);
        }
    } catch (const sbx::InputError &) {
    }
    return 0;
}
