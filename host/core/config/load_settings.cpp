// The top level of sandbox_settings.yaml: parse the YAML, then read each known key.
#include "config/load_settings.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>

#include "config/profile_names.hpp"
#include "config/section_readers.hpp"
#include "config/setting_values.hpp"
#include "config/suggest.hpp"
#include "config/yaml_document.hpp"
#include "util/errors.hpp"
#include "util/input_file.hpp"

namespace sbx::config {

namespace {

const std::vector<std::string> &top_level_keys() {
    static const std::vector<std::string> values = {"extends",
                                                    "plugin_dirs",
                                                    "data_dir",
                                                    "executor",
                                                    "stub_strategy",
                                                    "injectors",
                                                    "metrics",
                                                    "predictor",
                                                    "predictors",
                                                    "workers",
                                                    "keep_workspaces",
                                                    "log_level",
                                                    "json_logs",
                                                    "plugins",
                                                    "plugin_host",
                                                    "slurm",
                                                    "presets",
                                                    "workflows",
                                                    "targets",
                                                    "keyword_profiles",
                                                    "scenarios",
                                                    "input_stubs",
                                                    "stub_cache",
                                                    "preset_env",
                                                    "vm_executor",
                                                    "vm_os_types",
                                                    "allow_limit_downgrades",
                                                    "robustness_repetitions",
                                                    "sandbox_fault_reruns",
                                                    "alert_command",
                                                    "safe_mode"};
    return values;
}

// A list setting as written, or, when every item starts with '+' (or '-', in lists of plugin
// ids: those given `left_out`), `current` (what it would replace: the default's or the
// built-in list) with the '+' items added and the '-' items taken out, in the order written.
// `locations` are parallel to the result throughout. `left_out` receives each '-' item, also
// one `current` lacks (a drop-in plugin that is active by default may match it later).
std::vector<std::string> list_or_additions(
    const YamlReader &reader, const Field &field, const std::string &example,
    const std::vector<std::string> &current, std::vector<SourceLocation> &locations,
    std::vector<std::pair<std::string, SourceLocation>> *left_out = nullptr) {
    std::vector<SourceLocation> written_at;
    auto written = reader.text_list(field, example, &written_at);
    // '-' edits only lists of plugin ids: a path or a glob may start with '-'.
    const auto is_edit = [&](const std::string &item) {
        return !item.empty() && (item.front() == '+' || (item.front() == '-' && left_out));
    };
    const auto edits = std::count_if(written.begin(), written.end(), is_edit);
    if (edits == 0) {
        locations = std::move(written_at);
        if (left_out != nullptr) {
            left_out->clear();
        }
        return written;
    }
    if (edits != static_cast<std::ptrdiff_t>(written.size())) {
        const auto plain = std::find_if_not(written.begin(), written.end(), is_edit);
        const auto edit = std::find_if(written.begin(), written.end(), is_edit);
        reader.fail(written_at[static_cast<size_t>(plain - written.begin())],
                    field.key + " mixes items that edit the default list (" + *edit +
                        ") with items that replace it ('" + *plain + "')",
                    std::string("write every item with ") +
                        (left_out != nullptr ? "+ (add) or - (leave out)" : "+") +
                        " to edit the default " + field.key + ", or none to replace it");
    }
    std::vector<std::string> merged = current;
    locations.resize(merged.size());
    std::set<std::string> added;
    for (size_t i = 0; i < written.size(); ++i) {
        std::string item = written[i].substr(1);
        if (written[i].front() == '+') {
            // +x where the default list has x already: a no-op, so a file written when x was
            // not yet a default (metrics: [+extended]) keeps working. A second +x is still
            // refused as listed twice.
            const bool in_default =
                std::find(current.begin(), current.end(), item) != current.end();
            if (in_default && added.insert(item).second &&
                std::find(merged.begin(), merged.end(), item) != merged.end()) {
                continue;
            }
            if (left_out != nullptr) {  // -x then +x: moved to the end, not left out
                left_out->erase(
                    std::remove_if(left_out->begin(), left_out->end(),
                                   [&](const auto &gone) { return gone.first == item; }),
                    left_out->end());
            }
            merged.push_back(std::move(item));
            locations.push_back(written_at[i]);
            continue;
        }
        const auto found = std::find(merged.begin(), merged.end(), item);
        if (found != merged.end()) {
            locations.erase(locations.begin() + (found - merged.begin()));
            merged.erase(found);
        }
        if (left_out != nullptr) {  // always: '-' is an edit only where there is one
            left_out->emplace_back(std::move(item), written_at[i]);
        }
    }
    return merged;
}

// A list of plugin ids, each once.
std::vector<std::string> read_ids(const YamlReader &reader, const Field &field,
                                  const std::string &example,
                                  const std::vector<std::string> &current,
                                  std::vector<SourceLocation> &locations,
                                  std::vector<std::pair<std::string, SourceLocation>> &left_out) {
    std::vector<std::string> ids =
        list_or_additions(reader, field, example, current, locations, &left_out);
    std::set<std::string> seen;
    for (size_t i = 0; i < ids.size(); ++i) {
        if (ids[i].empty()) {
            reader.fail(
                locations[i],
                "item " + std::to_string(i + 1) + " of " + field.key + " is an empty string",
                "write a plugin id, e.g. " + example);
        }
        if (!seen.insert(ids[i]).second) {
            reader.fail(locations[i], "'" + ids[i] + "' is listed twice in " + field.key,
                        i < current.size() || locations[i].line == 0
                            ? "list each plugin once"
                            : "the default " + field.key + " has it already; leave out +" + ids[i]);
        }
    }
    return ids;
}

// Keywords are single words because target paths are split into words at every character
// that is not a letter or digit (presets/keyword_profiles): "user-db" could never match.
bool is_single_word(const std::string &keyword) {
    return !keyword.empty() && std::all_of(keyword.begin(), keyword.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0;
    });
}

// Profile names are kept as written (aliases too); each must be canonical or an alias.
void read_keyword_profiles(const YamlReader &reader, const Field &field, Settings &settings) {
    const std::string example = "keyword_profiles: {database: [high_latency_api, schema_drift]}";
    for (const auto &entry : reader.entries(field, "keyword_profiles", example)) {
        if (entry.key.empty()) {
            reader.fail(reader.where(entry.key_node), "a keyword of keyword_profiles is empty",
                        "write " + example);
        }
        if (!is_single_word(entry.key)) {
            reader.fail(reader.where(entry.key_node),
                        "keyword '" + entry.key + "' of keyword_profiles is not one word",
                        "target paths are matched word by word (split at every character that "
                        "is not a letter or digit); write letters and digits only, e.g. "
                        "database");
        }
        std::vector<SourceLocation> locations;
        auto profiles = reader.text_list(
            entry, entry.key + ": [high_latency_api, concurrency_spike]", &locations);
        for (size_t i = 0; i < profiles.size(); ++i) {
            if (!canonical_profile_name(profiles[i])) {
                reader.fail(locations[i],
                            "profile '" + profiles[i] + "' of keyword '" + entry.key +
                                "' in keyword_profiles is not a profile",
                            profile_name_hint(profiles[i]));
            }
        }
        settings.keyword_profiles[entry.key] = std::move(profiles);
    }
}

// A whole-number setting's bounds, and the value its error message suggests.
struct WholeRange {
    int low;
    int high;
    int usual;
};

// The entry's value within `range`; anything else fails naming the key's line, with `hint`.
int whole_number_within(const YamlReader &reader, const Field &entry, const WholeRange &range,
                        const std::string &hint) {
    const int64_t value = reader.integer(entry, entry.key + ": " + std::to_string(range.usual));
    if (value < range.low || value > range.high) {
        reader.fail(reader.where(entry),
                    entry.key + " must be a whole number from " + std::to_string(range.low) +
                        " to " + std::to_string(range.high),
                    hint);
    }
    return static_cast<int>(value);
}

void read_top_level(const YamlReader &reader, const Field &entry, Settings &s) {
    const std::string &key = entry.key;
    if (key == "extends") {
        return;  // read first, by load_settings_text
    }
    if (key == "plugin_dirs") {
        s.plugin_dirs =
            list_or_additions(reader, entry, "plugin_dirs: [plugins, /opt/sandbox/plugins]",
                              s.plugin_dirs, s.plugin_dir_locations);
        for (size_t i = 0; i < s.plugin_dirs.size(); ++i) {
            if (s.plugin_dirs[i].empty()) {
                reader.fail(s.plugin_dir_locations[i], "a directory in plugin_dirs is empty",
                            "write a path, e.g. plugin_dirs: [plugins]");
            }
        }
    } else if (key == "data_dir") {
        s.data_dir = reader.non_empty_text(entry, "data_dir: sandbox_data");
    } else if (key == "executor") {
        s.executor = reader.non_empty_text(entry, "executor: local");
        s.executor_where = reader.where(entry);
    } else if (key == "vm_executor") {
        s.vm_executor = reader.non_empty_text(entry, "vm_executor: qemu");
        s.vm_executor_where = reader.where(entry);
    } else if (key == "vm_os_types") {
        std::vector<SourceLocation> ignored;
        s.vm_os_types = reader.text_list(entry, "vm_os_types: [windows, macos]", &ignored);
    } else if (key == "stub_strategy") {
        s.stub_strategy = reader.non_empty_text(entry, "stub_strategy: normal");
        s.stub_strategy_where = reader.where(entry);
    } else if (key == "input_stubs") {
        s.input_stubs = reader.json(entry.value);
        s.input_stubs_where = reader.where(entry);
        check_input_stubs(s.input_stubs, [&](const std::string &problem) {
            reader.fail(reader.where(entry), "input_stubs " + problem,
                        "write a list of input sets, e.g. input_stubs: [{name: alice, n: 3}]");
        });
    } else if (key == "stub_cache") {
        s.stub_cache = reader.boolean(entry);
    } else if (key == "preset_env") {
        s.preset_env = reader.boolean(entry);
    } else if (key == "predictor") {
        s.predictor = reader.non_empty_text(entry, "predictor: ema");
        s.predictor_where = reader.where(entry);
    } else if (key == "predictors") {
        // `-id` only leaves a predictor out of the default list: none is active by default.
        std::vector<std::pair<std::string, SourceLocation>> left_out;
        s.predictors = read_ids(reader, entry, "predictors: [ema, linear, holt]", s.predictors,
                                s.predictor_locations, left_out);
    } else if (key == "injectors") {
        s.injectors = read_ids(reader, entry, "injectors: [cpu_spike]", s.injectors,
                               s.injector_locations, s.injectors_left_out);
    } else if (key == "metrics") {
        s.metrics = read_ids(reader, entry, "metrics: [process_metrics]", s.metrics,
                             s.metric_locations, s.metrics_left_out);
    } else if (key == "workers") {
        const std::string text = reader.text(entry, "workers: 4 or workers: auto");
        auto workers = parse_workers(text);
        if (!workers) {
            reader.fail(reader.where(entry),
                        "workers must be a whole number from 1 to " + std::to_string(kMaxWorkers) +
                            " or auto, not " + YamlReader::describe(entry.value),
                        "write workers: 4, or workers: auto for one per core");
        }
        s.workers = *workers;
    } else if (key == "keep_workspaces") {
        s.keep_workspaces = reader.boolean(entry);
    } else if (key == "safe_mode") {
        s.safe_mode = reader.boolean(entry);
        s.safe_mode_where = reader.where(entry);
    } else if (key == "allow_limit_downgrades") {
        s.allow_limit_downgrades = reader.boolean(entry);
    } else if (key == "robustness_repetitions") {
        s.robustness_repetitions =
            whole_number_within(reader, entry, {1, kMaxRepetitions, kDefaultRobustnessRepetitions},
                                "write robustness_repetitions: 13 (1 runs robustness scenarios "
                                "as often as the others)");
    } else if (key == "sandbox_fault_reruns") {
        constexpr int kMostReruns = 10;
        s.sandbox_fault_reruns = whole_number_within(
            reader, entry, {0, kMostReruns, 2},
            "write sandbox_fault_reruns: 2 (0 records a run the sandbox failed as it ended)");
    } else if (key == "alert_command") {
        std::vector<SourceLocation> ignored;
        s.alert_command = reader.text_list(
            entry, "alert_command: [/usr/local/bin/notify, --channel, ops]", &ignored);
        if (s.alert_command.empty() || s.alert_command.front().empty()) {
            reader.fail(reader.where(entry), "alert_command is empty",
                        "write the command as a list, e.g. alert_command: [/usr/local/bin/notify]");
        }
    } else if (key == "json_logs") {
        s.json_logs = reader.boolean(entry);
    } else if (key == "log_level") {
        s.log_level = reader.text(entry, "log_level: info");
        const auto &levels = log_levels();
        if (std::find(levels.begin(), levels.end(), s.log_level) == levels.end()) {
            reader.fail(reader.where(entry), "log_level '" + s.log_level + "' is not a level",
                        did_you_mean(s.log_level, levels) + "write one of " + join(levels));
        }
    } else if (key == "plugins") {
        read_plugin_configs(reader, entry, s);
    } else if (key == "plugin_host") {
        read_plugin_host(reader, entry, s);
    } else if (key == "slurm") {
        read_slurm(reader, entry, s);
    } else if (key == "presets") {
        // Replaces the default's list (extends: default), as every list setting does.
        s.presets.clear();
        s.preset_locations.clear();
        read_presets(reader, entry, s);
    } else if (key == "scenarios") {
        s.scenarios.clear();
        read_scenarios(reader, entry, s);
    } else if (key == "workflows") {
        s.workflows = read_workflows(reader, entry);
    } else if (key == "targets") {
        std::vector<SourceLocation> ignored;
        s.targets = list_or_additions(reader, entry, "targets: [\"bin/*\"]", s.targets, ignored);
    } else if (key == "keyword_profiles") {
        read_keyword_profiles(reader, entry, s);
    }
}

}  // namespace

namespace {

// The settings `extends:` starts from: the defaults for `extends: default`.
Settings extended_base(const YamlReader &reader, const Field &extends,
                       const DefaultSettings *defaults) {
    const std::string example = "extends: default";
    const std::string base = reader.text(extends, example);
    if (base != "default") {
        reader.fail(reader.where(extends), "extends: '" + base + "' is not a base to extend",
                    "write extends: default (the settings this host uses without --config)");
    }
    if (defaults == nullptr) {
        reader.fail(reader.where(extends),
                    "extends: default, but these are the default settings themselves",
                    "leave extends out of the default settings file");
    }
    return load_settings_text(defaults->yaml, defaults->source);
}

}  // namespace

Settings load_settings_text(const std::string &yaml, const std::string &source_name,
                            const DefaultSettings *defaults) {
    YamlReader reader(source_name);
    YAML::Node root = parse_settings_yaml(yaml, source_name);
    Field top{"the settings file", YAML::Node(), root};
    if (root.IsDefined() && !root.IsNull() && !root.IsMap()) {
        reader.fail(
            reader.where(root),
            "the settings file must be a mapping of settings, not " + YamlReader::describe(root),
            "write keys such as executor: local and workflows: [...] at the top level");
    }
    const auto fields = reader.fields(top, top_level_keys(), "the top level", "executor: local");
    Settings settings;
    for (const auto &entry : fields) {
        if (entry.key == "extends") {
            settings = extended_base(reader, entry, defaults);
        }
    }
    settings.source = source_name;
    for (const auto &entry : fields) {
        read_top_level(reader, entry, settings);
    }
    // The top-level safe_mode is the default of the workflows that do not say, wherever
    // in the file either was written.
    for (auto &workflow : settings.workflows) {
        if (!workflow.safe_mode_written) {
            workflow.safe_mode = settings.safe_mode;
            workflow.safe_mode_where = settings.safe_mode_where;
        }
    }
    return settings;
}

Settings load_settings_file(const std::filesystem::path &path, const DefaultSettings *defaults) {
    std::error_code ignored;
    if (std::filesystem::is_directory(path, ignored)) {
        throw InputError(path.string() +
                         ": is a directory, not a settings file; give the path of a YAML file "
                         "such as config/sandbox_settings.yaml");
    }
    return load_settings_text(
        read_input_file(path, "the settings file", "check the path given to --config"),
        path.string(), defaults);
}

}  // namespace sbx::config
