// Reads inline presets and run-scenarios lists, checking the keys that carry units.
#include <set>

#include "config/preset_checks.hpp"
#include "config/section_readers.hpp"
#include "config/templates.hpp"
#include "util/units.hpp"

namespace sbx::config {

namespace {

constexpr const char *kPresetExample = "{SCENARIO_NAME: tight, MEMORY_LIMIT: 512Mi, TIMEOUT: 30s}";

bool is_environment_name(const std::string &name) {
    return is_slot_name(name);
}

}  // namespace

nlohmann::json read_preset(const YamlReader &reader, const Field &field, const std::string &what) {
    nlohmann::json preset = nlohmann::json::object();
    for (const auto &entry : reader.entries(field, what, kPresetExample)) {
        if (!is_environment_name(entry.key)) {
            reader.fail(reader.where(entry.key_node),
                        "preset key '" + entry.key + "' is not an environment variable name",
                        "use letters, digits and '_', such as MEMORY_LIMIT");
        }
        nlohmann::json value;
        if (entry.key == "FAILURE_MODES" && entry.value.IsSequence()) {
            value = nlohmann::json::array();
            for (const auto &mode :
                 reader.text_list(entry, "FAILURE_MODES: [network_partition, cpu_spike]")) {
                value.push_back(mode);
            }
        } else if (entry.key == "VM_SETTINGS" && entry.value.IsMap()) {
            value = reader.json(entry.value);  // the VM executor's object (memory, image, ...)
        } else {
            reader.text(entry, entry.key == "FAILURE_MODES"
                                   ? "FAILURE_MODES: [network_partition, cpu_spike]"
                                   : entry.key + ": <one value>, as in MEMORY_LIMIT: 512Mi");
            value = scalar_to_json(entry.value);
        }
        try {
            check_preset_value(entry.key, value);
        } catch (const UnitError &error) {
            reader.fail(reader.where(entry), error.problem(), error.hint());
        }
        preset[entry.key] = value;
    }
    return preset;
}

void read_presets(const YamlReader &reader, const Field &field, Settings &settings) {
    const std::string example = "presets: [" + std::string(kPresetExample) + "]";
    if (field.value.IsDefined() && !field.value.IsNull() && !field.value.IsSequence()) {
        reader.fail(reader.where(field),
                    "presets must be a list of presets, not " + YamlReader::describe(field.value),
                    "write " + example);
    }
    size_t index = 0;
    for (const auto &item : field.value) {
        ++index;
        Field preset{"preset " + std::to_string(index), field.value, item};
        if (!item.IsMap()) {
            reader.fail(reader.where(preset),
                        "preset " + std::to_string(index) + " is " + YamlReader::describe(item) +
                            ", not a mapping",
                        "write " + example);
        }
        settings.presets.push_back(read_preset(reader, preset, "preset " + std::to_string(index)));
        settings.preset_locations.push_back(reader.where(item));
    }
}

void read_scenarios(const YamlReader &reader, const Field &field, Settings &settings) {
    const std::string example =
        "scenarios: [{name: normal}, {name: tight_memory, preset: {MEMORY_LIMIT: 256Mi}}]";
    if (field.value.IsDefined() && !field.value.IsNull() && !field.value.IsSequence()) {
        reader.fail(reader.where(field),
                    "scenarios must be a list, not " + YamlReader::describe(field.value),
                    "write " + example);
    }
    std::set<std::string> names;
    size_t index = 0;
    for (const auto &item : field.value) {
        const std::string what = "scenario " + std::to_string(++index);
        Field scenario{what, field.value, item};
        if (!item.IsMap()) {
            reader.fail(reader.where(scenario),
                        what + " is " + YamlReader::describe(item) + ", not a mapping",
                        "write " + example);
        }
        std::string name;
        nlohmann::json preset = nlohmann::json::object();
        bool named = false;
        for (const auto &entry : reader.fields(scenario, {"name", "preset"}, what, example)) {
            if (entry.key == "name") {
                name = reader.non_empty_text(entry, "name: hostile_input");
                named = true;
                if (!names.insert(name).second) {
                    reader.fail(reader.where(entry), "scenario '" + name + "' is listed twice",
                                "give each scenario its own name");
                }
            } else if (entry.value.IsDefined() && !entry.value.IsNull()) {
                preset = read_preset(reader, entry, "the preset of " + what);
            }
        }
        if (!named) {
            reader.fail(reader.where(item), what + " has no name", "write " + example);
        }
        settings.scenarios.emplace_back(name, preset);
        settings.scenario_locations.push_back(reader.where(item));
    }
}

}  // namespace sbx::config
