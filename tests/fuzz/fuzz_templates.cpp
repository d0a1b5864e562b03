// {{input.NAME}} templates: the loader's grammar (config/templates.hpp, which refuses a
// malformed template with std::invalid_argument) and, for text the loader accepts (the only
// text that reaches a run), the engine's expansion against an input set with every kind of
// value (engine/template.hpp), which must not throw.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "config/templates.hpp"
#include "engine/template.hpp"

namespace {

const nlohmann::json &input_set() {
    static const nlohmann::json inputs = {
        {"name", "Ada"},
        {"n", 3},
        {"big", 1e308},
        {"none", nullptr},
        {"list", {"a b", 3, true, {{"k", 1}}}},
        {"empty", nlohmann::json::array()},
        {"blob", {{"$bytes", "AP8="}}},
        {"bad_blob", {{"$bytes", "%%%"}}},
        {"doc", {{"nested", {{"$bytes", "aGk="}}}}},
    };
    return inputs;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string text(reinterpret_cast<const char *>(data), size);
    try {
        const auto found = sbx::config::find_input_templates(text);
        const auto expanded = sbx::config::expand_input_templates(
            text, [](const std::string &slot) { return "<" + slot + ">"; });
    } catch (const std::invalid_argument &) {
        return 0;  // refused when the settings are loaded
    }
    const auto expanded = sbx::engine::expand_template(text, input_set());
    const auto items = sbx::engine::expand_run_item(
        text, input_set(), [](const std::string &slot) { return slot != "doc"; });
    return 0;
}
