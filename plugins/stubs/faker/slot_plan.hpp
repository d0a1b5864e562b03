// One slot of a faker request, resolved once per generate() call: its generator, bounds,
// enum choices and stream key, so producing a set is only drawing and appending text.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "generator.hpp"
#include "locale.hpp"
#include "numbers.hpp"
#include "text_length.hpp"

namespace sbx_faker {

struct SlotPlan {
    std::string name;
    std::string key;  // the name as JSON text with the trailing ':'
    Generator generator = Generator::text;
    uint64_t stream = 0;               // mix(seed, name): set j draws from mix(stream, j)
    IntRange ints;                     // integer
    FloatRange floats;                 // number
    LengthBounds length;               // text: min/max characters
    std::vector<std::string> choices;  // choice: the enum values as JSON text
    nlohmann::json shape;              // json: the schema, else the example or default
    bool shape_is_schema = false;
    bool is_list = false;  // a list slot: 1-3 values of `generator`
};

// Plans every slot of `slots` (sorted by name, as nlohmann objects are) and checks that
// each can be generated (a dry run), so bad bounds are refused even when count is 0.
std::vector<SlotPlan> plan_slots(const nlohmann::json &slots, uint64_t seed, const Locale &locale);

// Appends the JSON text of `plan`'s value in input set `index`.
void append_value(const SlotPlan &plan, const Locale &locale, uint64_t index, std::string &out);

}  // namespace sbx_faker
