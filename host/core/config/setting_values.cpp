// Accepted values of scalar settings shared by the YAML loader and the overrides.
#include "config/setting_values.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <thread>

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
    unsigned value = 0;
    const char *end = text.data() + text.size();
    auto [stop, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || error != std::errc() || stop != end || value < 1 || value > kMaxWorkers) {
        return std::nullopt;
    }
    return value;
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

}  // namespace sbx::config
