// Scanning and expanding {{input.NAME}} templates.
#include "config/templates.hpp"

#include <stdexcept>

namespace sbx::config {

namespace {

bool is_name_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_name_char(char c) {
    return is_name_start(c) || (c >= '0' && c <= '9');
}

size_t skip_spaces(std::string_view text, size_t i) {
    while (i < text.size() && text[i] == ' ') {
        ++i;
    }
    return i;
}

}  // namespace

bool is_slot_name(std::string_view name) {
    if (name.empty() || !is_name_start(name[0])) {
        return false;
    }
    for (char c : name) {
        if (!is_name_char(c)) {
            return false;
        }
    }
    return true;
}

std::vector<TemplateRef> find_input_templates(std::string_view text) {
    static constexpr std::string_view kPrefix = "input.";
    std::vector<TemplateRef> out;
    size_t search = 0;
    while (true) {
        size_t open = text.find("{{", search);
        if (open == std::string_view::npos) {
            return out;
        }
        size_t start = skip_spaces(text, open + 2);
        if (text.substr(start, kPrefix.size()) != kPrefix) {
            search = open + 2;
            continue;
        }
        size_t close = text.find("}}", start);
        std::string written(text.substr(
            open, close == std::string_view::npos ? std::string_view::npos : close + 2 - open));
        if (close == std::string_view::npos) {
            throw std::invalid_argument("the template '" + written +
                                        "' has no closing '}}'; write {{input.NAME}}");
        }
        size_t name_begin = start + kPrefix.size();
        size_t name_end = name_begin;
        while (name_end < close && is_name_char(text[name_end])) {
            ++name_end;
        }
        std::string_view name = text.substr(name_begin, name_end - name_begin);
        if (start != open + 2 ||
            (is_slot_name(name) && skip_spaces(text, name_end) == close && name_end != close)) {
            // The engine expands only the exact form; a spaced one would reach the target as is.
            throw std::invalid_argument("the template '" + written +
                                        "' has spaces inside the braces; write {{input." +
                                        std::string(name) + "}} without spaces");
        }
        if (!is_slot_name(name) || name_end != close) {
            throw std::invalid_argument(
                "the template '" + written +
                "' does not name an input; write {{input.NAME}} where NAME is a declared input "
                "(letters, digits and '_', not starting with a digit)");
        }
        out.push_back({std::string(name), open, close + 2 - open});
        search = close + 2;
    }
}

std::string expand_input_templates(
    std::string_view text, const std::function<std::string(const std::string &)> &value_of) {
    std::string out;
    size_t copied = 0;
    for (const auto &ref : find_input_templates(text)) {
        out.append(text.substr(copied, ref.offset - copied));
        out += value_of(ref.slot);
        copied = ref.offset + ref.length;
    }
    out.append(text.substr(copied));
    return out;
}

}  // namespace sbx::config
