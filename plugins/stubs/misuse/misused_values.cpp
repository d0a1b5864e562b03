// Misused values by kind and slot type. Every candidate list is built so the misused value
// differs from the valid one, also after template expansion: a string "42" in an int slot
// would reach the target as the same text as 42, so it is not among them.
#include "misused_values.hpp"

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sbx_misuse {
namespace {

using nlohmann::json;

// A candidate that differs from `valid`, the pair's turn first; the turn's own when none
// does (no caller builds such a list).
json pick_differing(const std::vector<json> &candidates, const json &valid, const Turn &turn) {
    const std::size_t start = turn.pick(candidates.size());
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const json &c = candidates[(start + i) % candidates.size()];
        if (c != valid) {
            return c;
        }
    }
    return candidates[start];
}

std::string type_name(const json &value) {
    if (value.is_number_integer()) {
        return "integer";
    }
    if (value.is_number_float()) {
        return "float";
    }
    return value.type_name();  // string, boolean, null, object, array
}

std::string text_or(const json &value, const char *fallback) {
    return value.is_string() && !value.get_ref<const std::string &>().empty()
               ? value.get<std::string>()
               : fallback;
}

// Values of another JSON type than the slot's, which templates expand to other text than
// the valid value.
std::vector<json> wrong_types(const Slot &slot) {
    const json &valid = slot.valid;
    if (slot.type == "int") {
        return {"NaN", "twelve", "12abc", 3.75, true};
    }
    if (slot.type == "float") {
        return {"NaN", "Infinity", "1,5", "twelve", true};
    }
    if (slot.type == "bool") {
        return {"yes", "on", 1, "maybe"};
    }
    if (slot.type == "json") {
        // A list where an object belongs and the reverse; text that is no JSON at all.
        std::vector<json> out;
        if (valid.is_object()) {
            json list = json::array();
            for (const auto &[key, item] : valid.items()) {
                list.push_back(item);
            }
            out.emplace_back(std::move(list));
        } else if (valid.is_array()) {
            json object = json::object();
            for (std::size_t i = 0; i < valid.size(); ++i) {
                object[std::to_string(i)] = valid[i];
            }
            out.emplace_back(std::move(object));
        } else {
            out.push_back(json::array({valid}));
        }
        if (!valid.is_number()) {
            out.emplace_back(42);
        }
        if (!valid.is_string()) {
            out.emplace_back("{not json");
        }
        return out;
    }
    if (slot.type == "enum") {
        // The position instead of the name, a flag, every value at once.
        const json values = slot.declared.value("values", json::array());
        return {values.is_array() && values.size() > 1 ? 1 : 0, true, values};
    }
    if (slot.type == "list") {
        // One argument where several belong: a number, a flag, an object around the list,
        // the items as one text (unless a single item would read the same).
        std::vector<json> out = {12345, true, json{{"value", valid}}};
        if (valid.is_array() && valid.size() != 1) {
            std::string joined;
            for (const json &item : valid) {
                joined += (joined.empty() ? "" : " ") +
                          (item.is_string() ? item.get<std::string>() : item.dump());
            }
            out.emplace_back(joined);
        }
        return out;
    }
    // Text of any kind: a number, a flag, a list of two, an object around it.
    const std::string text = text_or(valid, "a");
    return {12345, true, json::array({text, text_or(valid, "b")}), json{{"value", valid}}};
}

json wrong_type(const Slot &slot, json &value, const Turn &turn) {
    value = pick_differing(wrong_types(slot), slot.valid, turn);
    return {{"kind", "wrong_type"}, {"expected", slot.type}, {"got", type_name(value)}};
}

json out_of_range(const Slot &slot, json &value, const Turn &turn) {
    const bool integral = slot.type == "int";
    // Which bound to break: the only one there is, or one of both, seeded. (Choosing by
    // pointer rather than by resetting optional<json> copies also keeps GCC's
    // maybe-uninitialized analysis quiet at -O2.)
    const bool has_below = slot.below_min.has_value();
    const bool has_above = slot.above_max.has_value();
    bool use_below = has_below;
    if (has_below && has_above) {
        use_below = turn.pick(2) == 0;  // alternately
    }
    if (use_below) {
        value = *slot.below_min;
        return {{"kind", "out_of_range"}, {"bound", "min"}, {"limit", slot.declared.at("min")}};
    }
    if (has_above) {
        value = *slot.above_max;
        return {{"kind", "out_of_range"}, {"bound", "max"}, {"limit", slot.declared.at("max")}};
    }
    // Unbounded (applies() leaves out bounded slots with no room beyond): past 32 bits,
    // the largest value, or negative.
    const std::vector<json> extremes =
        integral ? std::vector<json>{int64_t{2147483648}, std::numeric_limits<int64_t>::max(), -1}
                 : std::vector<json>{1.0e308, -1.0};
    value = pick_differing(extremes, slot.valid, turn);
    return {{"kind", "out_of_range"}, {"bound", "none"}};
}

std::size_t word_count(const std::string &text) {
    std::size_t words = 0;
    bool in_word = false;
    for (char c : text) {
        const bool space = std::isspace(static_cast<unsigned char>(c)) != 0;
        words += !space && !in_word ? 1 : 0;
        in_word = !space;
    }
    return words;
}

// A list slot's items spread into argv, so another number of items is another number of
// arguments: none, one fewer, one more, many more, an option and its value more.
json wrong_list_arity(const Slot &slot, json &value, const Turn &turn) {
    const json valid = slot.valid.is_array() ? slot.valid : json::array({slot.valid});
    const auto with = [&](std::initializer_list<const char *> extra) {
        json list = valid;
        for (const char *item : extra) {
            list.emplace_back(item);
        }
        return list;
    };
    std::vector<json> candidates = {json::array(), with({"extra"}),
                                    with({"extra_1", "extra_2", "extra_3", "extra_4", "extra_5",
                                          "extra_6", "extra_7", "extra_8", "extra_9"}),
                                    with({"--flag", "value"})};
    if (valid.size() > 1) {
        candidates.emplace_back(json(valid.begin(), valid.end() - 1));
    }
    value = pick_differing(candidates, slot.valid, turn);
    return {{"kind", "wrong_arity"}, {"items", value.size()}};
}

// Text that a shell, or a target that splits its arguments, reads as another number of
// words than one: none, several, an option and its value.
json wrong_arity(const Slot &slot, json &value, const Turn &turn) {
    if (slot.type == "list") {
        return wrong_list_arity(slot, value, turn);
    }
    std::vector<json> candidates = {"", "a b c", "--flag value"};
    if (slot.valid.is_string() && !slot.valid.get_ref<const std::string &>().empty()) {
        candidates.emplace_back(slot.valid.get<std::string>() + " extra words");
    }
    value = pick_differing(candidates, slot.valid, turn);
    return {{"kind", "wrong_arity"}, {"words", word_count(value.get<std::string>())}};
}

// Absolute paths, parent-directory walks and the home directory: all outside the
// workspace the target runs in.
json path_escape(const Slot &slot, json &value, const Turn &turn) {
    std::vector<json> candidates = {"../../etc/passwd", "/etc/shadow", "~/.ssh/id_rsa",
                                    "/proc/self/environ"};
    if (slot.valid.is_string() && !slot.valid.get_ref<const std::string &>().empty() &&
        slot.valid.get_ref<const std::string &>().front() != '/') {
        candidates.emplace_back("../../" + slot.valid.get<std::string>());
    }
    value = pick_differing(candidates, slot.valid, turn);
    return {{"kind", "path_escape"}};
}

template <class List>
bool contains(const List &values, const json &value) {
    for (const json &v : values) {
        if (v == value) {
            return true;
        }
    }
    return false;
}

// Near misses of the first value (other case, a trailing space) and plain wrong words.
json enum_violation(const Slot &slot, json &value, const Turn &turn) {
    const json &values = slot.declared.at("values");  // a non-empty list: applies()
    const std::string first = text_or(values.front(), "value");
    std::string upper = first;
    for (char &c : upper) {
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    std::vector<json> candidates;
    for (std::string c : {upper, first + " ", std::string("unknown"), std::string()}) {
        while (contains(values, c) || contains(candidates, c)) {
            c += "_";  // only for enums whose values are the candidates themselves
        }
        candidates.emplace_back(std::move(c));
    }
    value = candidates[turn.pick(candidates.size())];
    return {{"kind", "enum_violation"}};
}

}  // namespace

json misuse_slot(Kind kind, const Slot &slot, json &set, const Turn &turn) {
    if (kind == Kind::missing_required) {
        // Absent: an argv item that is exactly {{input.NAME}} gives no argument, any other
        // template the "" of an unset variable.
        set.erase(slot.name);
        return {{"kind", "missing_required"}, {"sent", "absent"}};
    }
    json &value = set[slot.name];
    switch (kind) {
        case Kind::wrong_type:
            return wrong_type(slot, value, turn);
        case Kind::missing_required:
            break;  // above
        case Kind::out_of_range:
            return out_of_range(slot, value, turn);
        case Kind::wrong_arity:
            return wrong_arity(slot, value, turn);
        case Kind::path_escape:
            return path_escape(slot, value, turn);
        case Kind::enum_violation:
            return enum_violation(slot, value, turn);
        case Kind::extra_slot:
            break;
    }
    return {{"kind", kind_name(kind)}};  // extra_slot adds slots: add_extra_slots
}

void add_extra_slots(json &set, json &meta, Rng &rng) {
    const uint64_t extras = 1 + rng.below(2);
    int number = 1;
    for (uint64_t i = 0; i < extras; ++i) {
        std::string name = "__extra_" + std::to_string(number++);
        while (set.contains(name)) {
            name = "__extra_" + std::to_string(number++);
        }
        set[name] = "unexpected";
        meta[name] = {{"kind", "extra_slot"}};
    }
}

}  // namespace sbx_misuse
