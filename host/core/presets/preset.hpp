// Presets: JSON objects of string keys describing one hostile environment. This file
// loads them and turns the resource keys into executor limits.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sbx::presets {

struct Preset {
    std::string name;     // SCENARIO_NAME, or "preset<N>" when it has none
    nlohmann::json body;  // the object as written
    std::string origin;   // "file.json:3:5", "SANDBOX_ENV_PRESETS[1]", ...
};

// The limits an executor enforces; 0 means "no limit".
struct Limits {
    int64_t timeout_ms = 0;
    double cpu_time_s = 0;
    int64_t memory_bytes = 0;
    int64_t disk_bytes = 0;
    int64_t pids = 0;
    double cpu_cores = 0;        // CPU_LIMIT: a share of cores like docker --cpus
    int64_t disk_write_bps = 0;  // DISK_IO_THROTTLE: bytes per second written to the disk
};

// Parses presets from JSON text: one object, or a list of objects. `origin` names the
// source in errors. Throws InputError with line and column for malformed JSON.
std::vector<Preset> parse_presets(const std::string &text, const std::string &origin);
// Reads a preset file (JSON).
std::vector<Preset> load_preset_file(const std::string &path);
// Wraps presets written inline in sandbox_settings.yaml.
Preset make_preset(nlohmann::json body, std::string origin, size_t index);

// Renames the second and later presets of a name to "name#2", "name#3", ...: results are
// keyed by preset name (cells, series, synergy), and generated presets often share one
// (two random presets both named high_latency_api, say). SCENARIO_NAME in the body, what
// the target sees, is left as written.
void make_names_unique(std::vector<Preset> &presets);

// Validates the known keys and returns the limits. Throws InputError naming the preset's
// origin, the key and what to write.
Limits resolve_limits(const Preset &preset);
// The run spec's `limits` object: only the limits that are set (> 0), so that an absent one
// lets the executor apply its own configured default.
nlohmann::json limit_fields(const Limits &limits);
// Keys the host does not act on, passed to the target's environment unchanged (values
// rendered as text; lists joined with commas), plus SCENARIO_NAME.
std::map<std::string, std::string> passthrough_environment(const Preset &preset);
// True for the keys docs/semantics.md ("Presets") lists as known.
bool is_known_key(const std::string &key);

}  // namespace sbx::presets
