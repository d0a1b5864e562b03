// SANDBOX_* environment variables over the loaded settings (see load_settings.hpp).
#include <algorithm>
#include <sstream>

#include "config/load_settings.hpp"
#include "config/setting_values.hpp"
#include "config/suggest.hpp"
#include "util/errors.hpp"
#include "util/json_input.hpp"

namespace sbx::config {

namespace {

// One variable's value, or nullptr when it is unset or empty.
class Environment {
  public:
    explicit Environment(const std::function<const char *(const char *)> &getenv)
        : getenv_(getenv) {}

    const char *get(const char *name) const {
        const char *value = getenv_(name);
        return (value == nullptr || *value == '\0') ? nullptr : value;
    }

  private:
    const std::function<const char *(const char *)> &getenv_;
};

SourceLocation from_variable(const char *name) {
    return {std::string("environment variable ") + name, 0, 0};
}

[[noreturn]] void fail(const char *name, const char *value, const std::string &problem,
                       const std::string &hint) {
    throw InputError(std::string("environment variable ") + name + "='" + value + "': " + problem +
                     "; " + hint);
}

bool read_switch(const char *name, const char *value) {
    auto parsed = parse_switch(value);
    if (!parsed) {
        fail(name, value, "not an on/off value",
             std::string("set ") + name + " to 1 or true (on), or 0 or false (off)");
    }
    return *parsed;
}

// "a:b::c" -> {a, b, c}: an empty part (a doubled or trailing ':') is skipped.
std::vector<std::string> split_path_list(const std::string &text) {
    std::vector<std::string> parts;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = std::min(text.find(':', start), text.size());
        if (end > start) {
            parts.push_back(text.substr(start, end - start));
        }
        start = end + 1;
    }
    return parts;
}

}  // namespace

void apply_environment(Settings &settings,
                       const std::function<const char *(const char *)> &getenv) {
    const Environment env(getenv);
    if (const char *value = env.get("SANDBOX_DATA_DIR")) {
        settings.data_dir = value;
    }
    std::vector<std::string> dirs;
    if (const char *value = env.get("SANDBOX_PLUGIN_DIRS")) {
        dirs = split_path_list(value);
    }
    std::vector<SourceLocation> dir_locations(dirs.size(), from_variable("SANDBOX_PLUGIN_DIRS"));
    if (const char *value = env.get("SANDBOX_METRICS_PLUGIN_DIR")) {
        dirs.emplace_back(value);
        dir_locations.push_back(from_variable("SANDBOX_METRICS_PLUGIN_DIR"));
    }
    // Directories of extra stub strategies (the seeds' name); searched like any plugin dir.
    if (const char *value = env.get("SANDBOX_STUB_PLUGINS")) {
        for (auto &dir : split_path_list(value)) {
            dirs.push_back(std::move(dir));
            dir_locations.push_back(from_variable("SANDBOX_STUB_PLUGINS"));
        }
    }
    settings.plugin_dirs.insert(settings.plugin_dirs.begin(), dirs.begin(), dirs.end());
    settings.plugin_dir_locations.insert(settings.plugin_dir_locations.begin(),
                                         dir_locations.begin(), dir_locations.end());
    // SANDBOX_DOCKER=1 (the seed's switch) makes docker the default executor; an explicit
    // SANDBOX_EXECUTOR, read next, wins over it. A workflow's own `executor:` wins over both.
    if (const char *value = env.get("SANDBOX_DOCKER");
        value != nullptr && read_switch("SANDBOX_DOCKER", value)) {
        settings.executor = "docker";
        settings.executor_where = from_variable("SANDBOX_DOCKER");
    }
    if (const char *value = env.get("SANDBOX_EXECUTOR")) {
        settings.executor = value;
        settings.executor_where = from_variable("SANDBOX_EXECUTOR");
    }
    if (const char *value = env.get("SANDBOX_STUB_STRATEGY")) {
        settings.stub_strategy = value;
        settings.stub_strategy_where = from_variable("SANDBOX_STUB_STRATEGY");
    }
    if (const char *value = env.get("SANDBOX_INPUT_STUBS")) {
        settings.input_stubs =
            parse_json_input(value, "environment variable SANDBOX_INPUT_STUBS", "input sets",
                             "set it to a JSON list of input sets, e.g. "
                             "[{\"name\": \"alice\"}]");
        settings.input_stubs_where = from_variable("SANDBOX_INPUT_STUBS");
        check_input_stubs(settings.input_stubs, [&](const std::string &problem) {
            fail("SANDBOX_INPUT_STUBS", value, problem,
                 "set it to a JSON list of input sets, e.g. [{\"name\": \"alice\"}]");
        });
    }
    if (const char *value = env.get("SANDBOX_PRESET_ENV")) {
        settings.preset_env = read_switch("SANDBOX_PRESET_ENV", value);
    }
    if (const char *value = env.get("SANDBOX_STUB_CACHE")) {
        settings.stub_cache = read_switch("SANDBOX_STUB_CACHE", value);
    }
    if (const char *value = env.get("SANDBOX_WORKERS")) {
        auto workers = parse_workers(value);
        if (!workers) {
            fail("SANDBOX_WORKERS", value,
                 "not a whole number from 1 to " + std::to_string(kMaxWorkers) + " or auto",
                 "set SANDBOX_WORKERS to a number such as 4, or to auto for one per core");
        }
        settings.workers = *workers;
    }
    if (const char *value = env.get("SANDBOX_LOG_LEVEL")) {
        const auto &levels = log_levels();
        if (std::find(levels.begin(), levels.end(), value) == levels.end()) {
            fail("SANDBOX_LOG_LEVEL", value, "not a log level",
                 did_you_mean(value, levels) + "set it to one of " + join(levels));
        }
        settings.log_level = value;
    }
    if (const char *value = env.get("SANDBOX_JSON_LOGS")) {
        settings.json_logs = read_switch("SANDBOX_JSON_LOGS", value);
    }
    if (const char *value = env.get("SANDBOX_KEEP_WORKSPACES")) {
        settings.keep_workspaces = read_switch("SANDBOX_KEEP_WORKSPACES", value);
    }
    if (const char *value = env.get("SANDBOX_ROBUSTNESS_REPETITIONS")) {
        const auto count = parse_whole_number(value, 1, kMaxRepetitions);
        if (!count) {
            fail("SANDBOX_ROBUSTNESS_REPETITIONS", value,
                 "not a whole number from 1 to " + std::to_string(kMaxRepetitions),
                 "set it to a number such as 13, or 1 to run robustness scenarios as often as "
                 "the others");
        }
        settings.robustness_repetitions = static_cast<int>(*count);
    }
    if (const char *value = env.get("SANDBOX_ALLOW_LIMIT_DOWNGRADES")) {
        settings.allow_limit_downgrades = read_switch("SANDBOX_ALLOW_LIMIT_DOWNGRADES", value);
    }
    if (const char *value = env.get("SANDBOX_ALERT_COMMAND")) {
        // Words split at spaces; an argument with a space needs the settings' list.
        std::istringstream words(value);
        std::vector<std::string> command;
        for (std::string word; words >> word;) {
            command.push_back(word);
        }
        if (command.empty()) {
            fail("SANDBOX_ALERT_COMMAND", value, "no command",
                 "set SANDBOX_ALERT_COMMAND to a command, e.g. /usr/local/bin/notify --channel "
                 "ops, or unset it");
        }
        settings.alert_command = std::move(command);
    }
    if (const char *value = env.get("SANDBOX_PRESET_RL_PATH")) {
        settings.preset_policy_path = value;
    }
    if (const char *value = env.get("SANDBOX_PRESET_RL_STRATEGY")) {
        if (!is_preset_strategy(value)) {
            fail("SANDBOX_PRESET_RL_STRATEGY", value, "not a preset strategy",
                 "set it to q_learning (the learned policy, the default) or rules (the fixed "
                 "rules alone), or unset it");
        }
        settings.preset_strategy = value;
    }
    if (const char *value = env.get("SANDBOX_ENV_PRESETS")) {
        settings.env_presets = value;  // parsed where presets are chosen, with line:column
    }
    if (const char *value = env.get("SANDBOX_GENERATE_PRESETS")) {
        const auto on = parse_switch(value);
        if (!on) {
            fail("SANDBOX_GENERATE_PRESETS", value, "not an on/off value",
                 "set SANDBOX_GENERATE_PRESETS to 1 or true, or 0 or false (0 or false: run "
                 "one preset {SCENARIO_NAME: normal} when no other source gives presets)");
        }
        settings.generate_presets = *on;
    }
    if (const char *value = env.get("SANDBOX_PRESET_MODE")) {
        if (std::string(value) != "canonical" && std::string(value) != "random") {
            fail("SANDBOX_PRESET_MODE", value, "not a preset mode",
                 "set it to canonical (the canonical presets, low and high) or random (seeded "
                 "random presets, the default), or unset it");
        }
        settings.canonical_presets = std::string(value) == "canonical";
    }
    if (const char *value = env.get("SANDBOX_FAIL_ON_MISSING_SCENARIOS")) {
        const auto on = parse_switch(value);
        if (!on) {
            fail("SANDBOX_FAIL_ON_MISSING_SCENARIOS", value, "not an on/off value",
                 "set SANDBOX_FAIL_ON_MISSING_SCENARIOS to 1 or true, or 0 or false (1 or "
                 "true: a section simulation whose presets leave out a wanted canonical "
                 "profile fails instead of adding it)");
        }
        settings.fail_on_missing_scenarios = *on;
    }
    if (const char *value = env.get("SANDBOX_REPO_PATH")) {
        settings.repo_path = value;
    }
}

std::string settings_file_from_environment(
    const std::function<const char *(const char *)> &getenv) {
    const char *value = Environment(getenv).get("SANDBOX_SETTINGS_YAML");
    return value == nullptr ? "" : value;
}

}  // namespace sbx::config
