// The settings loader on arbitrary YAML: every input is either settings or an InputError
// naming file:line:column (host/core/config/load_settings.hpp). Anything else that escapes
// (a yaml-cpp exception, a nlohmann type error) or any sanitizer report is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "config/load_settings.hpp"
#include "util/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string text(reinterpret_cast<const char *>(data), size);
    try {
        const auto settings = sbx::config::load_settings_text(text, "fuzz.yaml");
    } catch (const sbx::InputError &) {
    }
    return 0;
}
