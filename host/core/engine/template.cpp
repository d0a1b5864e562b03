// Template expansion for step commands.
#include "engine/template.hpp"

#include "util/errors.hpp"

namespace sbx::engine {

std::string expand_template(const std::string &text, const nlohmann::json &inputs) {
    static constexpr std::string_view kOpen = "{{input.";
    std::string out;
    size_t position = 0;
    while (true) {
        const size_t start = text.find(kOpen, position);
        if (start == std::string::npos) {
            out.append(text, position, std::string::npos);
            return out;
        }
        const size_t end = text.find("}}", start);
        if (end == std::string::npos) {
            out.append(text, position, std::string::npos);  // not a template: keep it
            return out;
        }
        out.append(text, position, start - position);
        const std::string name = text.substr(start + kOpen.size(), end - start - kOpen.size());
        if (!inputs.contains(name)) {
            throw InputError("template '{{input." + name + "}}' names no input of this step");
        }
        const auto &value = inputs[name];
        out += value.is_string()
                   ? value.get<std::string>()
                   : value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        position = end + 2;
    }
}

}  // namespace sbx::engine
