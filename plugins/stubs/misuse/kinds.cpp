// Kind names and which slot types each kind can misuse (see kinds.hpp).
#include "kinds.hpp"

#include <sbx/plugin.hpp>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include "support/plain_values.hpp"

namespace sbx_misuse {
namespace {

using nlohmann::json;

bool is_one_of(const std::string &type, std::initializer_list<const char *> types) {
    for (const char *t : types) {
        if (type == t) {
            return true;
        }
    }
    return false;
}

constexpr double kExact = 9.0e15;  // integers up to here are exact in a double

// A number strictly beyond the slot's `key` bound (below for min, above for max).
std::optional<json> beyond(const json &declared, const char *key, bool integral) {
    const auto it = declared.find(key);
    if (it == declared.end() || !it->is_number()) {
        return std::nullopt;
    }
    const bool below = std::string(key) == "min";
    const double d = it->get<double>();
    if (integral && std::fabs(d) < kExact) {
        return json(static_cast<int64_t>(below ? std::ceil(d) - 1 : std::floor(d) + 1));
    }
    // Well clear of the bound, else the next double: at the ends of the double range the
    // step overflows.
    const double step = std::fmax(1.0, std::fabs(d));
    double next = below ? d - step : d + step;
    if (!std::isfinite(next)) {
        next = std::nextafter(d, below ? -HUGE_VAL : HUGE_VAL);
    }
    if (!std::isfinite(next)) {
        return std::nullopt;
    }
    return json(next);
}

json valid_value(const std::string &name, const json &declared, const std::string &type) {
    for (const char *key : {"example", "default"}) {
        const auto it = declared.find(key);
        if (it != declared.end() && !it->is_null()) {
            return *it;
        }
    }
    // Bounds are checked where the value is made: a min above max is refused here.
    return sbx::support::plain_value(declared, type, "misuse: slot '" + name + "'");
}

}  // namespace

const char *kind_name(Kind kind) {
    switch (kind) {
        case Kind::wrong_type:
            return "wrong_type";
        case Kind::missing_required:
            return "missing_required";
        case Kind::extra_slot:
            return "extra_slot";
        case Kind::out_of_range:
            return "out_of_range";
        case Kind::wrong_arity:
            return "wrong_arity";
        case Kind::path_escape:
            return "path_escape";
        case Kind::enum_violation:
            return "enum_violation";
    }
    return "unknown";
}

std::optional<Kind> kind_named(const std::string &name) {
    for (Kind kind : kAllKinds) {
        if (name == kind_name(kind)) {
            return kind;
        }
    }
    return std::nullopt;
}

std::string kind_list() {
    std::string list;
    for (Kind kind : kAllKinds) {
        list += (list.empty() ? "" : ", ") + std::string(kind_name(kind));
    }
    return list;
}

Slot read_slot(const std::string &name, const json &declaration) {
    Slot slot;
    slot.name = name;
    slot.declared = declaration.is_object() ? declaration : json::object();
    const auto type = slot.declared.find("type");
    slot.type =
        type != slot.declared.end() && type->is_string() ? type->get<std::string>() : "string";
    for (const char *bound : {"min", "max"}) {
        const auto it = slot.declared.find(bound);
        if (it != slot.declared.end() && !it->is_null() && !it->is_number()) {
            throw sbx::Error(SBX_INVALID,
                             "misuse: slot '" + name + "': " + bound + " must be a number");
        }
    }
    slot.valid = valid_value(name, slot.declared, slot.type);
    if (slot.type == "int" || slot.type == "float") {
        slot.below_min = beyond(slot.declared, "min", slot.type == "int");
        slot.above_max = beyond(slot.declared, "max", slot.type == "int");
    }
    return slot;
}

bool applies(Kind kind, const Slot &slot) {
    switch (kind) {
        case Kind::wrong_type:
            return true;
        case Kind::missing_required: {
            // Left out of the set, which differs from every value, "" included (an argv item
            // that is exactly the slot's template then gives no argument). An optional slot
            // left out is no misuse.
            const json required = slot.declared.value("required", json(true));
            return !required.is_boolean() || required.get<bool>();
        }
        case Kind::extra_slot:
            return false;
        case Kind::out_of_range: {
            // Unbounded numbers get extremes; bounded ones need room beyond a bound.
            const bool bounded = slot.declared.value("min", json()).is_number() ||
                                 slot.declared.value("max", json()).is_number();
            return is_one_of(slot.type, {"int", "float"}) &&
                   (!bounded || slot.below_min || slot.above_max);
        }
        case Kind::wrong_arity:
            return is_one_of(slot.type, {"string", "name", "path", "list"});
        case Kind::path_escape:
            return slot.type == "path";
        case Kind::enum_violation: {
            const auto values = slot.declared.find("values");
            return slot.type == "enum" && values != slot.declared.end() && values->is_array() &&
                   !values->empty();
        }
    }
    return false;
}

}  // namespace sbx_misuse
