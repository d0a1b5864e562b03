// Accepted values of scalar settings shared by the YAML loader and the overrides.
#include "config/setting_values.hpp"

#include <algorithm>
#include <cctype>
#include <thread>

#include "util/number_parse.hpp"

namespace sbx::config {

const std::vector<std::string> &log_levels() {
    static const std::vector<std::string> levels = {"trace", "debug",    "info", "warn",
                                                    "error", "critical", "off"};
    return levels;
}

std::optional<unsigned> parse_workers(std::string_view text) {
    if (text == "auto") {
        return std::max(1u, std::thread::hardware_concurrency());
    }
    const auto value = parse_whole_number(text, 1, kMaxWorkers);
    return value ? std::optional<unsigned>(static_cast<unsigned>(*value)) : std::nullopt;
}

std::optional<int64_t> parse_whole_number(std::string_view text, int64_t min, int64_t max) {
    const auto value = util::parse_int64(text, util::LeadingPlus::refused);
    if (!value || *value < min || *value > max) {
        return std::nullopt;
    }
    return value;
}

bool is_preset_strategy(std::string_view text) {
    return text == "q_learning" || text == "rules";
}

std::optional<bool> parse_switch(std::string_view text) {
    std::string lower(text);
    for (char &c : lower) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if (lower == "1" || lower == "true") {
        return true;
    }
    if (lower == "0" || lower == "false") {
        return false;
    }
    return std::nullopt;
}

void check_input_stubs(const nlohmann::json &sets,
                       const std::function<void(const std::string &problem)> &fail) {
    if (!sets.is_array()) {
        fail(std::string("must be a list of input sets, not ") + sets.type_name());
        return;
    }
    if (sets.empty()) {
        fail("is an empty list: there is no input set to run");
        return;
    }
    for (size_t i = 0; i < sets.size(); ++i) {
        if (!sets[i].is_object()) {
            fail("item " + std::to_string(i + 1) + " is " + sets[i].type_name() +
                 ", not an input set (an object of slot names to values)");
            return;
        }
    }
}

}  // namespace sbx::config
