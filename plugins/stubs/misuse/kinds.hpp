// The kinds of misuse and the input slots each applies to, and a slot as the misuse stub
// sees it: its declaration, its type and the valid value every misuse starts from.
#pragma once

#include <array>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace sbx_misuse {

// Part of the replay contract: the schedule walks kinds in this order, so reordering them
// changes what a recorded seed produced.
enum class Kind {
    wrong_type,
    missing_required,
    extra_slot,
    out_of_range,
    wrong_arity,
    path_escape,
    enum_violation
};

inline constexpr std::array<Kind, 7> kAllKinds = {
    Kind::wrong_type,  Kind::missing_required, Kind::extra_slot,    Kind::out_of_range,
    Kind::wrong_arity, Kind::path_escape,      Kind::enum_violation};

// The kind's name in configuration and meta ("wrong_type", ...).
const char *kind_name(Kind kind);
std::optional<Kind> kind_named(const std::string &name);
// "wrong_type, missing_required, ...", for messages that list the choices.
std::string kind_list();

struct Slot {
    std::string name;
    std::string type;         // the declared type; "string" when absent
    nlohmann::json declared;  // the declaration, always an object
    nlohmann::json valid;     // example, else default, else a plain value of the type
    // For int and float slots: the nearest number below min and above max that this stub
    // sends (integers for int slots where exact); absent without that bound, or when no
    // finite number lies beyond it.
    std::optional<nlohmann::json> below_min, above_max;
};

// One slot of an sbx.stub/1 request. A min or max that is not a number is SBX_INVALID,
// naming the slot.
Slot read_slot(const std::string &name, const nlohmann::json &declaration);

// Whether `kind` can misuse `slot` so that its value really changes. extra_slot applies to
// no slot: it adds slots of its own.
bool applies(Kind kind, const Slot &slot);

}  // namespace sbx_misuse
