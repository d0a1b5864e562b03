// Planning slots and writing their values (see slot_plan.hpp).
#include "slot_plan.hpp"

#include <sbx/plugin.hpp>

#include <algorithm>
#include <optional>

#include "json_text.hpp"
#include "json_values.hpp"
#include "stream.hpp"
#include "text_values.hpp"

namespace sbx_faker {
namespace {

using nlohmann::json;

std::optional<double> bound(const json &slot, const char *key, const std::string &where) {
    const auto it = slot.find(key);
    if (it == slot.end() || it->is_null()) {
        return std::nullopt;
    }
    if (!it->is_number()) {
        throw sbx::Error(SBX_INVALID, where + ": " + key + " must be a number, not " + it->dump());
    }
    return it->get<double>();
}

// A string slot's min/max are lengths, as in the random strategy.
LengthBounds length_bounds(const json &slot, const std::string &where) {
    const auto min = bound(slot, "min", where);
    const auto max = bound(slot, "max", where);
    if (min && max && *min > *max) {
        throw sbx::Error(SBX_INVALID,
                         where + ": min is above max; write a max that is at least min");
    }
    const auto whole = [](std::optional<double> d) {
        // Clamped before the cast so that huge or negative bounds stay defined.
        return d ? std::optional<int64_t>(static_cast<int64_t>(std::clamp(*d, 0.0, 1e9)))
                 : std::nullopt;
    };
    return {whole(min), whole(max)};
}

void plan_json(SlotPlan &plan, const json &slot) {
    const auto schema = slot.find("schema");
    if (schema != slot.end() && schema->is_object()) {
        plan.shape = *schema;
        plan.shape_is_schema = true;
        return;
    }
    for (const char *key : {"example", "default"}) {
        const auto it = slot.find(key);
        if (it != slot.end() && !it->is_null()) {
            plan.shape = *it;
            return;
        }
    }
    plan.shape = default_record();
}

}  // namespace

std::vector<SlotPlan> plan_slots(const json &slots, uint64_t seed, const Locale &locale) {
    std::vector<SlotPlan> plans;
    for (const auto &[name, declared] : slots.items()) {
        const json &slot = declared.is_object() ? declared : json::object();
        const std::string where = "faker: slot '" + name + "'";
        const auto type_it = slot.find("type");
        const std::string type =
            type_it != slot.end() && type_it->is_string() ? type_it->get<std::string>() : "string";
        SlotPlan plan;
        plan.name = name;
        plan.key = json(name).dump() + ":";
        plan.generator = for_slot(type, name);
        plan.is_list = type == "list";
        plan.stream = mix(seed, name);
        switch (plan.generator) {
            case Generator::integer:
                plan.ints = int_range(bound(slot, "min", where), bound(slot, "max", where), where);
                break;
            case Generator::number:
                plan.floats =
                    float_range(bound(slot, "min", where), bound(slot, "max", where), where);
                break;
            case Generator::text:
                plan.length = length_bounds(slot, where);
                break;
            case Generator::choice: {
                const auto values = slot.find("values");
                if (values != slot.end() && values->is_array()) {
                    for (const json &value : *values) {
                        plan.choices.push_back(value.dump());
                    }
                }
                break;
            }
            case Generator::json:
                plan_json(plan, slot);
                if (plan.shape_is_schema) {
                    from_schema(plan.shape, locale, 0, where + ": schema");  // dry run
                }
                break;
            default:
                break;
        }
        plans.push_back(std::move(plan));
    }
    return plans;
}

void append_value(const SlotPlan &plan, const Locale &locale, uint64_t index, std::string &out) {
    const uint64_t stream = mix(plan.stream, index);
    sbx::SplitMix64 rng(stream);
    switch (plan.generator) {
        case Generator::integer:
            out += std::to_string(draw(plan.ints, rng));
            return;
        case Generator::number:
            out += json(draw(plan.floats, rng)).dump();
            return;
        case Generator::boolean:
            out += rng.below(2) == 1 ? "true" : "false";
            return;
        case Generator::choice:
            // An enum without values has nothing to choose: "", as the other strategies.
            out += plan.choices.empty() ? std::string("\"\"")
                                        : plan.choices[rng.below(plan.choices.size())];
            return;
        case Generator::json:
            out += (plan.shape_is_schema
                        ? from_schema(plan.shape, locale, stream, "faker: slot '" + plan.name + "'")
                        : like_example(plan.shape, locale, stream))
                       .dump();
            return;
        default:
            break;
    }
    const uint64_t values = plan.is_list ? 1 + rng.below(3) : 1;
    out += plan.is_list ? "[" : "";
    for (uint64_t i = 0; i < values; ++i) {
        std::string text;
        append_text(plan.generator, locale, rng, text);
        if (plan.generator == Generator::text) {
            fit_length(text, plan.length, locale, rng);
        }
        out += i > 0 ? "," : "";
        append_json_string(out, text);
    }
    out += plan.is_list ? "]" : "";
}

}  // namespace sbx_faker
