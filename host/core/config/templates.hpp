// The {{input.NAME}} templates by which a step's inputs reach its argv, stdin, environment
// and files: one grammar, shared by the loader (checks) and the engine (expansion).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace sbx::config {

// One template in a string: exactly `{{input.NAME}}`, no spaces inside the braces. NAME is
// a letter or '_' followed by letters, digits and '_'.
struct TemplateRef {
    std::string slot;   // NAME
    size_t offset = 0;  // of the opening "{{"
    size_t length = 0;  // up to and including the closing "}}"
};

// The templates in `text`, in order. Braces that do not hold "input." are left alone
// (other tools' templates pass through); a malformed input template ("{{input.}}",
// "{{input.a b}}", "{{ input.a }}", no closing "}}") throws std::invalid_argument whose
// message says what is wrong and how to write it.
std::vector<TemplateRef> find_input_templates(std::string_view text);

// `text` with every template replaced by value_of(NAME).
std::string expand_input_templates(std::string_view text,
                                   const std::function<std::string(const std::string &)> &value_of);

// Whether `name` is a valid slot name (see TemplateRef).
bool is_slot_name(std::string_view name);

}  // namespace sbx::config
