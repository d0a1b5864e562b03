// The settings model: what sandbox_settings.yaml (plus SANDBOX_* overrides) says, with the
// file:line:column of each value the host checks later, so its errors can point at the YAML.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <sbx/run_status.hpp>

#include "config/network_mock.hpp"
#include "config/plugin_host_policy.hpp"
#include "config/service.hpp"

namespace sbx::config {

// Where a value was written. line and column are 1-based; line 0 means "not from a line
// of a file" (a built-in default, or an environment variable named in `file`).
struct SourceLocation {
    std::string file;
    int line = 0;
    int column = 0;
    // "file:line:column"; just "file" when line is 0; "built-in default" when both are empty.
    std::string str() const;
};

// One named input of a step, filled by a stub strategy and referenced as {{input.NAME}}.
struct InputSlot {
    std::string name;
    // One of: string, int, float, bool, json, path, email, url, name, date, bytes, enum, list.
    std::string type = "string";
    nlohmann::json example;        // null when not given
    nlohmann::json default_value;  // null when not given
    std::optional<double> min, max;
    std::vector<std::string> values;  // the choices of an enum slot (required for enum)
    nlohmann::json schema;  // a json slot's JSON Schema (fields with types), null when none
    bool required = true;
    SourceLocation where;
};

// What a step must do to pass.
struct Expectation {
    std::optional<int> exit_code = 0;  // nullopt: any exit code (written `exit_code: any`)
    RunStatus status = RunStatus::ok;
    std::optional<std::string> stdout_contains;
};

// How a step is judged under the robustness scenarios (hostile input, misuse, schema drift):
// `robust` (the default) passes a run that the step rejects cleanly (a `rejects:` exit
// code) as well as one that meets its expectation; `strict` passes only the expectation.
// Crashes, hangs and other endings fail either way (docs/configuration.md, "Outcome
// classes").
enum class Scoring { robust, strict };

// One command of a workflow. Strings in run, stdin_text, env values, files (paths and
// contents) and expect.stdout_contains may hold {{input.NAME}} templates; every NAME is
// declared in inputs (the loader checks).
struct Step {
    std::string name;              // "step1", "step2", ... when not given
    std::vector<std::string> run;  // argv, never empty
    std::optional<std::string> stdin_text;
    std::map<std::string, std::string> env;
    std::map<std::string, std::string> files;  // path relative to the workspace -> content
    std::vector<InputSlot> inputs;             // in the order written
    Expectation expect;
    // `rejects: {exit_codes: [...]}`: the exit codes with which the program refuses an input
    // it judged bad, cleanly (a message, no crash). Sorted, each once; empty when none.
    std::vector<int> reject_exit_codes;
    Scoring scoring = Scoring::robust;
    std::optional<double> timeout_s;
    SourceLocation where;
};

// An upstream service the workflow's target talks to. The fault_proxy injector puts a proxy
// on `listen` that forwards to `target` and tells the target where it is through
// SANDBOX_UPSTREAM_<NAME> (docs/configuration.md, "Upstreams").
struct Upstream {
    std::string name;    // letters, digits and '_', not starting with a digit; unique
    std::string listen;  // host:port, or [IPv6]:port; port 0: any free port
    std::string target;  // host:port of the real upstream
    SourceLocation where;
};

struct Workflow {
    int64_t id = 0;  // 0: no id given (ids written in YAML are positive)
    std::string name;
    std::string executor;  // "" = Settings::executor
    SourceLocation executor_where;
    std::string baseline;  // "" = none; otherwise the name of another workflow in the file
    SourceLocation baseline_where;
    std::string impact = "standard";  // experimental, low, standard or critical
    // What the targets see of the filesystem: "host" or "readonly"; "" = the executor's
    // own setting (local: readonly).
    std::string filesystem;
    // With filesystem: minimal, the host paths the steps see ("/usr", "/srv/data:rw").
    std::vector<std::string> binds;
    std::vector<Service> services;  // started before the steps, stopped after them
    ServiceScope service_scope = ServiceScope::run;
    std::vector<Upstream> upstreams;  // in the order written
    // Canned HTTP answers the host serves for each run, reached as upstreams.
    std::vector<NetworkMock> network_mocks;
    // Every step runs in a network namespace of its own with loopback only (the network
    // injector's, without uplink): nothing leaves it but the fault proxies of its upstreams,
    // services and mocks. `safe_mode:` of the workflow, else the top-level one.
    bool safe_mode = false;
    bool safe_mode_written = false;  // the workflow's own key, not the top-level default
    SourceLocation safe_mode_where;  // of the key that set it (the workflow's or top-level)
    std::vector<Step> steps;         // never empty
    SourceLocation where;
};

// A plugin's configuration section, validated later against the plugin's JSON Schema.
struct PluginConfig {
    nlohmann::json value = nlohmann::json::object();
    SourceLocation where;      // of the value (the mapping)
    SourceLocation key_where;  // of the plugin id key, for "not a loaded plugin" errors
    // JSON pointer ("" for the section itself, "/default_timeout_ms", "/hosts/0") -> where
    // that value was written.
    std::map<std::string, SourceLocation> locations;
};

// `plugin_host:`: how plugins are run (in process or isolated), their call deadlines and
// what a crash of an isolated one does.
struct PluginHostSettings {
    IsolationPolicy policy;
    // true: a metrics collector or predictor disabled after a failure ends the command with
    // exit 3 once every run is done (--strict-plugins); false: exit 0, the failure reported.
    bool strict = false;
    SourceLocation where;
};

// `slurm:`: how `--on slurm` submits a matrix (docs/scale-out.md).
struct SlurmSettings {
    std::string partition;  // "" = the cluster's default
    std::string account;
    std::string time_limit;  // sbatch --time of each array task ("" = the partition's)
    // Runs at once inside each array task: its `--workers` and its `--cpus-per-task`.
    int workers_per_task = 1;
    // Array tasks a matrix is split into; 0 = one per CPU the partition has.
    int shards = 0;
    // Array tasks at once (sbatch --array=...%N); 0 = no throttle.
    int max_running = 0;
    // Times the runs of a lost task (cancelled, timed out, node lost) are submitted again.
    int resubmits = 2;
    std::vector<std::string> sbatch_options;  // added to every sbatch, as written
    // A folder every node sees where job files and per-shard stores go; "" = <data_dir>/slurm.
    std::string shared_dir;
    double poll_interval_s = 0.5;
    SourceLocation where;
};

inline constexpr int kDefaultRobustnessRepetitions = 13;
inline constexpr int kMaxRepetitions = 1000000;

struct Settings {
    std::string source;  // path of the file read, or e.g. "config/sandbox_settings.yaml (embedded)"
    std::vector<std::string> plugin_dirs;  // searched in order; as written (relative paths stay)
    std::vector<SourceLocation> plugin_dir_locations;  // parallel to plugin_dirs
    std::string data_dir = "sandbox_data";
    // Where plugins record what a crash would leave behind, for purge-stale; "" =
    // <data_dir>/state. Not a settings-file key: a Slurm worker points it at its node's
    // folder, since those records are only good on the machine that wrote them.
    std::string state_dir;
    std::string executor = "local";
    SourceLocation executor_where;
    // A preset that sets VM_SETTINGS, or an OS_TYPE listed in vm_os_types, runs on
    // vm_executor (unless the workflow names its own executor).
    std::string vm_executor = "qemu";
    SourceLocation vm_executor_where;
    std::vector<std::string> vm_os_types = {"windows", "macos"};
    // A stub strategy id, or a chain "faker,misuse" (each later one alters the sets of the
    // one before it).
    std::string stub_strategy = "normal";
    SourceLocation stub_strategy_where;
    // `input_stubs:` / SANDBOX_INPUT_STUBS: input sets that replace generation (cycled over a
    // cell's runs); null when not given.
    nlohmann::json input_stubs;
    SourceLocation input_stubs_where;
    // Keep generated input sets in metrics.db's stub_cache and reuse them.
    bool stub_cache = true;
    // Known preset keys in the host's environment (export CPU_LIMIT=2) reach the presets of
    // run and the simulations (presets/environment_keys.hpp).
    bool preset_env = true;
    // Plugin ids applied around every run. Without `injectors:`, every built-in fault
    // injector, in working order (network before fault_proxy, whose proxies then live in the
    // run's network namespace): a scenario's faults are made unless the settings say `[]`.
    std::vector<std::string> injectors = {"network",     "cpu_spike", "concurrency_spike",
                                          "fault_proxy", "timeout",   "disk_corruption",
                                          "broken_auth"};
    // Where each was written, parallel to injectors (shorter: the rest are defaults).
    std::vector<SourceLocation> injector_locations;
    std::vector<std::string> metrics = {"process_metrics", "extended"};
    std::vector<SourceLocation> metric_locations = {{}, {}};  // parallel to metrics
    // `-id` items of injectors: and metrics:, with where each was written: left out of the
    // default list, and never used as a drop-in that is active by default.
    std::vector<std::pair<std::string, SourceLocation>> injectors_left_out;
    std::vector<std::pair<std::string, SourceLocation>> metrics_left_out;
    // The predictor whose forecasts are shown, and those compared beside it: every one
    // forecasts every recorded series, and `reliability` scores them all.
    std::string predictor = "auto";
    SourceLocation predictor_where;
    std::vector<std::string> predictors = {"ema", "linear", "holt"};
    std::vector<SourceLocation> predictor_locations = {{}, {}, {}};  // parallel to predictors
    // Runs executed at once; the default (and `auto`) is one per core.
    unsigned workers = std::max(1u, std::thread::hardware_concurrency());
    bool keep_workspaces = false;
    // `safe_mode:` at the top level: the default of every workflow that does not say.
    bool safe_mode = false;
    SourceLocation safe_mode_where;
    // Run for each alert (store/alert_dispatch.hpp); empty: alerts are only recorded.
    std::vector<std::string> alert_command;
    // The preset policy adapt-presets learns in (SANDBOX_PRESET_RL_PATH); "": the data
    // dir's preset_policy.json.
    std::string preset_policy_path;
    // How adapt-presets steps presets (SANDBOX_PRESET_RL_STRATEGY): q_learning or rules.
    std::string preset_strategy = "q_learning";
    // Where the presets come from (presets/selection.hpp): SANDBOX_ENV_PRESETS, JSON text
    // ("" for none); SANDBOX_GENERATE_PRESETS (false: one {SCENARIO_NAME: normal} when
    // nothing else gives presets); SANDBOX_PRESET_MODE=canonical (the canonical presets
    // instead of random ones); SANDBOX_FAIL_ON_MISSING_SCENARIOS (a section simulation
    // whose presets leave out a canonical profile fails instead of adding it).
    std::string env_presets;
    bool generate_presets = true;
    bool canonical_presets = false;
    bool fail_on_missing_scenarios = false;
    // SANDBOX_REPO_PATH: what `targets:` globs are relative to; "" the working directory.
    std::string repo_path;
    // A preset limit that the executor can only hold by something weaker (no cgroup without
    // root: RLIMIT_AS instead of an OOM kill, ...) stops run-scenarios before any run unless
    // this is true; then the downgrade is printed before the matrix and kept in each result.
    bool allow_limit_downgrades = false;
    // run-scenarios runs each robustness scenario (hostile_input, user_misuse, schema_drift)
    // at least this many times, so that one pass tries every hostile category (the hostile
    // stub's first 13 sets) and every misuse kind (7); 1 turns it off.
    int robustness_repetitions = kDefaultRobustnessRepetitions;
    // A run whose executor said the sandbox failed (`sandbox_fault: true` in a result: an
    // engine that did not answer, a guest that did not boot) is run again up to this many
    // times: a failure must be the program's, never the sandbox's.
    int sandbox_fault_reruns = 2;
    std::string log_level = "info";  // trace, debug, info, warn, error, critical, off
    bool json_logs = false;
    std::map<std::string, PluginConfig> plugins;  // per-plugin configuration by plugin id
    PluginHostSettings plugin_host;
    SlurmSettings slurm;
    // Inline presets: JSON objects of string keys to scalars (FAILURE_MODES may be a list).
    std::vector<nlohmann::json> presets;
    std::vector<SourceLocation> preset_locations;  // parallel to presets
    // `scenarios:` replaces the default run-scenarios list: (name, preset) in order.
    std::vector<std::pair<std::string, nlohmann::json>> scenarios;
    std::vector<SourceLocation> scenario_locations;  // parallel to scenarios
    std::vector<Workflow> workflows;
    std::vector<std::string> targets;  // executables (globs) for section simulations
    std::map<std::string, std::vector<std::string>> keyword_profiles;

    // The workflow with this name, or else with this numeric id; nullptr when none.
    const Workflow *find_workflow(const std::string &name_or_id) const;
    // state_dir, or <data_dir>/state.
    std::filesystem::path state_folder() const {
        return state_dir.empty() ? std::filesystem::path(data_dir) / "state"
                                 : std::filesystem::path(state_dir);
    }
};

}  // namespace sbx::config
