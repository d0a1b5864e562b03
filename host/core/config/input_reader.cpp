// Reads one input slot of a step (`inputs: {NAME: {type: ..., example: ...}}`) and checks
// that its example and default fit its type.
#include <algorithm>
#include <cmath>

#include "config/section_readers.hpp"
#include "config/suggest.hpp"
#include "config/templates.hpp"
#include "util/json_input.hpp"

namespace sbx::config {

namespace {

const std::vector<std::string> &slot_keys() {
    static const std::vector<std::string> values = {"type", "example", "default",  "min",
                                                    "max",  "values",  "required", "schema"};
    return values;
}

const std::vector<std::string> &slot_types() {
    static const std::vector<std::string> values = {"string", "int",   "float", "bool", "json",
                                                    "path",   "email", "url",   "name", "date",
                                                    "bytes",  "enum",  "list"};
    return values;
}

// Whether `value` (an example or default) fits the slot; the message part when it does not.
std::string mismatch(const InputSlot &slot, const nlohmann::json &value) {
    if (value.is_null()) {
        return "";
    }
    if (slot.type == "int" && !value.is_number_integer()) {
        return "is not a whole number";
    }
    if (slot.type == "float" && !value.is_number()) {
        return "is not a number";
    }
    if (slot.type == "bool" && !value.is_boolean()) {
        return "is not true or false";
    }
    if (slot.type == "list") {
        if (!value.is_array()) {
            return "is not a list";
        }
        // Each item is one argv item: text, or a number or true/false as its text.
        for (const auto &item : value) {
            if (!item.is_primitive() || item.is_null()) {
                return "holds the item " + json_text(item) + ", which is not text";
            }
        }
    }
    if (slot.type == "enum" &&
        (!value.is_string() || std::find(slot.values.begin(), slot.values.end(),
                                         value.get<std::string>()) == slot.values.end())) {
        return "is not one of the values " + join(slot.values);
    }
    if (value.is_number() && (slot.type == "int" || slot.type == "float")) {
        double number = value.get<double>();
        if ((slot.min && number < *slot.min) || (slot.max && number > *slot.max)) {
            return "is outside min..max";
        }
    }
    return "";
}

// Fails when the example or default (`key`) does not fit the slot.
void check_fits(const YamlReader &reader, const InputSlot &slot, const std::string &slot_what,
                const std::string &key, const Field &entry) {
    const nlohmann::json &value = key == "example" ? slot.example : slot.default_value;
    std::string problem = mismatch(slot, value);
    if (!problem.empty()) {
        reader.fail(reader.where(entry),
                    "the " + key + " " + json_text(value) + " of " + slot_what + " " + problem,
                    "write a value of type " + slot.type + " (or remove " + key + ")");
    }
}

}  // namespace

InputSlot read_input_slot(const YamlReader &reader, const Field &field, const std::string &what) {
    const std::string example = "inputs: {count: {type: int, example: 3, min: 1, max: 10}}";
    InputSlot slot;
    slot.name = field.key;
    slot.where = reader.where(field.key_node);
    if (!is_slot_name(slot.name)) {
        reader.fail(slot.where,
                    "input name '" + slot.name + "' of " + what + " is not a plain name",
                    "use letters, digits and '_', not starting with a digit, since it is "
                    "written as {{input." +
                        slot.name + "}}");
    }
    const std::string slot_what = "input '" + slot.name + "' of " + what;
    SourceLocation min_where, max_where, values_where, schema_where;
    std::vector<std::pair<std::string, Field>> checked_values;
    for (const auto &entry : reader.fields(field, slot_keys(), slot_what, example)) {
        if (entry.key == "type") {
            slot.type = reader.non_empty_text(entry, "type: string");
            if (std::find(slot_types().begin(), slot_types().end(), slot.type) ==
                slot_types().end()) {
                reader.fail(
                    reader.where(entry),
                    "type '" + slot.type + "' of " + slot_what + " is not an input type",
                    did_you_mean(slot.type, slot_types()) + "write one of " + join(slot_types()));
            }
        } else if (entry.key == "example" || entry.key == "default") {
            (entry.key == "example" ? slot.example : slot.default_value) = reader.json(entry.value);
            checked_values.emplace_back(entry.key, entry);
        } else if (entry.key == "min") {
            slot.min = reader.number(entry, "min: 0");
            min_where = reader.where(entry);
        } else if (entry.key == "max") {
            slot.max = reader.number(entry, "max: 100");
            max_where = reader.where(entry);
        } else if (entry.key == "values") {
            slot.values = reader.text_list(entry, "values: [red, green, blue]");
            values_where = reader.where(entry);
        } else if (entry.key == "required") {
            slot.required = reader.boolean(entry);
        } else if (entry.key == "schema") {
            if (!entry.value.IsMap()) {
                reader.fail(reader.where(entry),
                            "schema of " + slot_what + " must be a mapping (a JSON Schema), not " +
                                YamlReader::describe(entry.value),
                            "write e.g. schema: {type: object, properties: {id: {type: integer}}}");
            }
            slot.schema = reader.json(entry.value);
            schema_where = reader.where(entry);
        }
    }
    if (!slot.schema.is_null() && slot.type != "json") {
        reader.fail(schema_where,
                    "a schema is only for json inputs, and " + slot_what + " has type " + slot.type,
                    "write type: json, or remove schema");
    }
    if (slot.min && slot.max && *slot.min > *slot.max) {
        reader.fail(max_where, "max of " + slot_what + " is below its min",
                    "write a max that is at least min");
    }
    if (slot.type == "list" && (slot.min || slot.max)) {
        reader.fail(slot.min ? min_where : max_where,
                    "min and max are not for list inputs (" + slot_what +
                        "): a list's length is what misuse varies",
                    "remove min and max");
    }
    if (slot.type == "enum" && slot.values.empty()) {
        reader.fail(slot.where, slot_what + " has type enum but no values",
                    "list the choices, e.g. " + slot.name + ": {type: enum, values: [red, green]}");
    }
    if (slot.type != "enum" && !slot.values.empty()) {
        reader.fail(values_where,
                    "values are only for enum inputs, and " + slot_what + " has type " + slot.type,
                    "write type: enum, or remove values");
    }
    for (const auto &[key, entry] : checked_values) {
        check_fits(reader, slot, slot_what, key, entry);
    }
    return slot;
}

}  // namespace sbx::config
