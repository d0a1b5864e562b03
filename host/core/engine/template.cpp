// Template expansion for step commands, on top of the config's template grammar (one
// grammar for the check at load time and the expansion at run time).
#include "engine/template.hpp"

#include "config/templates.hpp"
#include "engine/input_bytes.hpp"

namespace sbx::engine {

namespace {

// How one value reaches the target as text (a `$bytes` value as its bytes).
std::string text_of(const nlohmann::json &value) {
    return expansion_text(value);
}

}  // namespace

std::string expand_template(const std::string &text, const nlohmann::json &inputs) {
    return config::expand_input_templates(text, [&](const std::string &name) {
        // Absent (or null): what an unset variable gives. The loader already checked that
        // NAME is declared; a set without it is a missing input, as misuse's
        // missing_required sends it.
        const auto found = inputs.find(name);
        return found == inputs.end() || found->is_null() ? std::string() : text_of(*found);
    });
}

std::vector<std::string> expand_run_item(const std::string &item, const nlohmann::json &inputs,
                                         const std::function<bool(const std::string &)> &is_list) {
    const auto refs = config::find_input_templates(item);
    if (refs.size() != 1 || refs[0].offset != 0 || refs[0].length != item.size()) {
        return {expand_template(item, inputs)};
    }
    const auto found = inputs.find(refs[0].slot);
    if (found == inputs.end() || found->is_null()) {
        return {};
    }
    if (!found->is_array() || !is_list(refs[0].slot)) {
        return {text_of(*found)};
    }
    std::vector<std::string> items;
    for (const auto &element : *found) {
        items.push_back(text_of(element));
    }
    return items;
}

}  // namespace sbx::engine
