// How an injector tells from a preset whether to act: FAILURE_MODES (a list or a
// comma-separated string) names its mode, or a flag key of its own is set.
#pragma once

#include <sbx/plugin.hpp>

#include <nlohmann/json.hpp>
#include <string>

namespace sbx::support {

inline std::string trimmed(const std::string &text) {
    const auto first = text.find_first_not_of(" \t");
    const auto last = text.find_last_not_of(" \t");
    return first == std::string::npos ? std::string() : text.substr(first, last - first + 1);
}

// True when the preset's FAILURE_MODES names `mode`.
inline bool lists_failure_mode(const nlohmann::json &preset, const std::string &mode) {
    const auto modes = preset.find("FAILURE_MODES");
    if (modes == preset.end()) {
        return false;
    }
    if (modes->is_array()) {
        for (const auto &item : *modes) {
            if (item.is_string() && trimmed(item.get<std::string>()) == mode) {
                return true;
            }
        }
        return false;
    }
    if (!modes->is_string()) {
        return false;
    }
    const std::string text = modes->get<std::string>();
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(',', start), text.size());
        if (trimmed(text.substr(start, end - start)) == mode) {
            return true;
        }
        start = end + 1;
    }
    return false;
}

// A flag key: true, 1, "1", "true", "yes", "on" set it; false, 0, "0", "false", "no", "off",
// "" and an absent key leave it unset; anything else is SBX_INVALID naming the key.
inline bool flag_set(const nlohmann::json &preset, const std::string &key) {
    const auto value = preset.find(key);
    if (value == preset.end() || value->is_null()) {
        return false;
    }
    if (value->is_boolean()) {
        return value->get<bool>();
    }
    if (value->is_number()) {
        return value->get<double>() != 0;
    }
    if (value->is_string()) {
        const std::string text = trimmed(value->get<std::string>());
        if (text == "1" || text == "true" || text == "yes" || text == "on") {
            return true;
        }
        if (text.empty() || text == "0" || text == "false" || text == "no" || text == "off") {
            return false;
        }
    }
    throw Error(SBX_INVALID, key + ": " + value->dump() +
                                 " is not a flag; write 1, true or yes to set it, 0, false or "
                                 "no to leave it unset");
}

}  // namespace sbx::support
