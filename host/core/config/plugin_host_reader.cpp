// `plugin_host:`: where plugins run and how long their calls may take.
//   plugin_host:
//     isolation: auto          # auto (built-ins in process, others isolated), process, in_process
//     call_deadline_s: 60      # every call; an executor's run gets its own timeout on top
//     restarts: 3              # a crashed isolated plugin is started again this many times
//     on_crash: continue       # continue (the run or cell records it) or stop (exit 3)
//     strict: false            # true: a disabled metrics collector or predictor makes the
//                              # command end with exit 3 (after every run)
//     memory_mb: 1024          # isolated collectors, predictors and stubs; 0: no limit
//     overrides:
//       lintrend: {isolation: process, call_deadline_s: 5, memory_mb: 256}
//       process_metrics: {path: /opt/sbx/plugins/metrics/process_metrics.so}
#include <algorithm>
#include <chrono>
#include <filesystem>

#include "config/section_readers.hpp"
#include "config/suggest.hpp"

namespace sbx::config {
namespace {

const std::vector<std::string> &isolation_names() {
    static const std::vector<std::string> names = {"auto", "process", "in_process"};
    return names;
}

std::string read_choice(const YamlReader &reader, const Field &field,
                        const std::vector<std::string> &choices, const std::string &example) {
    std::string value = reader.text(field, example);
    if (std::find(choices.begin(), choices.end(), value) == choices.end()) {
        reader.fail(reader.where(field),
                    field.key + " '" + value + "' is not one of " + join(choices),
                    did_you_mean(value, choices) + "write e.g. " + example);
    }
    return value;
}

std::chrono::milliseconds read_deadline(const YamlReader &reader, const Field &field) {
    const double seconds = reader.number(field, "call_deadline_s: 60");
    if (!(seconds >= 0) || seconds > 86400.0 * 365) {
        reader.fail(reader.where(field),
                    "call_deadline_s must be a number of seconds from 0 (no deadline) to a year",
                    "write e.g. call_deadline_s: 60");
    }
    return std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000.0));
}

uint64_t read_memory(const YamlReader &reader, const Field &field) {
    const int64_t mib = reader.integer(field, "memory_mb: 1024");
    if (mib < 0 || mib > int64_t{1} << 30) {
        reader.fail(reader.where(field),
                    "memory_mb must be a whole number of MiB from 0 (no limit) to 2^30",
                    "write e.g. memory_mb: 1024");
    }
    return static_cast<uint64_t>(mib) * 1024 * 1024;
}

// A relative path is relative to the settings file's folder, as the user reads it.
std::filesystem::path read_plugin_path(const YamlReader &reader, const Field &field) {
    std::filesystem::path path = reader.text(field, "path: /opt/plugins/metrics/mine.so");
    std::error_code ec;
    const std::filesystem::path settings_file = reader.file();
    if (path.is_relative() && std::filesystem::is_regular_file(settings_file, ec)) {
        path = settings_file.parent_path() / path;
    }
    if (!std::filesystem::is_regular_file(path, ec)) {
        reader.fail(reader.where(field), "path " + path.string() + " is not a file",
                    "name the .so file that should provide this plugin id");
    }
    return std::filesystem::weakly_canonical(path, ec);
}

void read_override(const YamlReader &reader, const Field &field, PluginHostSettings &settings) {
    const std::string example = field.key + ": {isolation: process, call_deadline_s: 5}";
    for (const auto &entry :
         reader.fields(field, {"isolation", "call_deadline_s", "memory_mb", "path"},
                       "plugin_host.overrides." + field.key, example)) {
        if (entry.key == "isolation") {
            const auto value =
                read_choice(reader, entry, {"process", "in_process"}, "isolation: process");
            settings.policy.isolation_of[field.key] =
                value == "process" ? Isolation::process : Isolation::in_process;
        } else if (entry.key == "memory_mb") {
            settings.policy.memory_of[field.key] = read_memory(reader, entry);
        } else if (entry.key == "path") {
            settings.policy.path_of[field.key] = read_plugin_path(reader, entry);
        } else {
            settings.policy.deadline_of[field.key] = read_deadline(reader, entry);
        }
    }
}

}  // namespace

void read_plugin_host(const YamlReader &reader, const Field &field, Settings &settings) {
    auto &out = settings.plugin_host;
    out.where = reader.where(field);
    const std::string example = "plugin_host: {isolation: auto, call_deadline_s: 60}";
    for (const auto &entry : reader.fields(field,
                                           {"isolation", "call_deadline_s", "restarts", "on_crash",
                                            "strict", "memory_mb", "overrides"},
                                           "plugin_host", example)) {
        if (entry.key == "isolation") {
            const auto value = read_choice(reader, entry, isolation_names(), "isolation: auto");
            out.policy.mode = value == "auto"      ? IsolationPolicy::Mode::automatic
                              : value == "process" ? IsolationPolicy::Mode::process
                                                   : IsolationPolicy::Mode::in_process;
        } else if (entry.key == "call_deadline_s") {
            out.policy.defaults.deadline = read_deadline(reader, entry);
        } else if (entry.key == "restarts") {
            const int64_t restarts = reader.integer(entry, "restarts: 3");
            if (restarts < 0 || restarts > 1000) {
                reader.fail(reader.where(entry), "restarts must be a whole number from 0 to 1000",
                            "write e.g. restarts: 3 (0: a crashed plugin is not started again)");
            }
            out.policy.defaults.restarts = static_cast<int>(restarts);
        } else if (entry.key == "strict") {
            out.strict = reader.boolean(entry);
        } else if (entry.key == "memory_mb") {
            out.policy.memory_bytes = read_memory(reader, entry);
        } else if (entry.key == "on_crash") {
            out.policy.defaults.stop_on_crash =
                read_choice(reader, entry, {"continue", "stop"}, "on_crash: continue") == "stop";
        } else {
            for (const auto &plugin :
                 reader.entries(entry, "plugin_host.overrides",
                                "overrides: {lintrend: {isolation: process}}")) {
                read_override(reader, plugin, out);
            }
        }
    }
}

}  // namespace sbx::config
