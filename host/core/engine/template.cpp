// Template expansion for step commands, on top of the config's template grammar (one
// grammar for the check at load time and the expansion at run time).
#include "engine/template.hpp"

#include "config/templates.hpp"
#include "engine/input_bytes.hpp"
#include "util/errors.hpp"

namespace sbx::engine {

std::string expand_template(const std::string &text, const nlohmann::json &inputs) {
    return config::expand_input_templates(text, [&](const std::string &name) {
        if (!inputs.contains(name)) {
            throw InputError("template '{{input." + name + "}}' names no input of this run");
        }
        return expansion_text(inputs[name]);
    });
}

}  // namespace sbx::engine
