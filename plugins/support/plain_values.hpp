// The "normal" value of an input slot that declares neither example nor default: valid
// and unremarkable, so whatever else a strategy changes is the only thing wrong.
#pragma once

#include <sbx/plugin.hpp>

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace sbx::support {

// The slot's `key` bound as a double, or false when absent (null counts as absent). A
// bound that is not a number is SBX_INVALID, naming `where` ("normal: slot 'n'").
inline bool number_bound(const nlohmann::json &slot, const char *key, const std::string &where,
                         double &out) {
    const auto it = slot.find(key);
    if (it == slot.end() || it->is_null()) {
        return false;
    }
    if (!it->is_number()) {
        throw sbx::Error(SBX_INVALID, where + ": " + key + " must be a number, not " + it->dump());
    }
    out = it->get<double>();
    return true;
}

// The plain number of an int or float slot: its min, else 0 brought down to its max. An
// int slot gets a JSON integer even though the host sends bounds as doubles (min 5.0 → 5):
// bounds are rounded inwards and clamped into int64, so a fractional or huge bound is still
// respected. Refused (SBX_INVALID): min above max, and an int range that holds no int64.
inline nlohmann::json plain_number(const nlohmann::json &slot, bool integral,
                                   const std::string &where) {
    double min = 0.0;
    double max = 0.0;
    const bool has_min = number_bound(slot, "min", where, min);
    const bool has_max = number_bound(slot, "max", where, max);
    if (has_min && has_max && min > max) {
        throw sbx::Error(SBX_INVALID, where + ": min " + nlohmann::json(min).dump() +
                                          " is above max " + nlohmann::json(max).dump() +
                                          "; write a max that is at least min");
    }
    if (!integral) {
        return has_max && !has_min && max < 0.0 ? max : (has_min ? min : 0.0);
    }
    // -2^63 and the largest double below 2^63: every double in between converts to int64.
    constexpr double kLowest = -9223372036854775808.0;
    constexpr double kHighest = 9223372036854774784.0;
    const double lo = has_min ? std::fmax(std::ceil(min), kLowest) : kLowest;
    const double hi = has_max ? std::fmin(std::floor(max), kHighest) : kHighest;
    if (lo > hi) {
        throw sbx::Error(SBX_INVALID, where + ": no 64-bit whole number lies within min " +
                                          (has_min ? nlohmann::json(min).dump() : "(none)") +
                                          " and max " +
                                          (has_max ? nlohmann::json(max).dump() : "(none)"));
    }
    const double value = has_min ? lo : std::fmin(0.0, hi);
    return static_cast<int64_t>(value);
}

// `where` names the slot in errors, with the strategy ("normal: slot 'count'").
inline nlohmann::json plain_value(const nlohmann::json &slot, const std::string &type,
                                  const std::string &where = "slot") {
    using nlohmann::json;
    if (type == "int" || type == "float") {
        return plain_number(slot, type == "int", where);
    }
    if (type == "bool") {
        return false;
    }
    if (type == "json") {
        return json::object();
    }
    if (type == "path") {
        return "input.txt";
    }
    if (type == "email") {
        return "user@example.com";
    }
    if (type == "url") {
        return "https://example.com/";
    }
    if (type == "name") {
        return "Alex Example";
    }
    if (type == "date") {
        return "2024-01-01";
    }
    if (type == "list") {
        return json::array({"a", "b"});  // two arguments: one more and none both differ
    }
    if (type == "enum" && slot.contains("values") && slot["values"].is_array() &&
        !slot["values"].empty()) {
        return slot["values"][0];
    }
    return "";
}

}  // namespace sbx::support
