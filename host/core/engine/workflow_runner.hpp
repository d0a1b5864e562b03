// Executes one run: a workflow's steps in order, under one preset and one input set, each
// step through the injectors and the executor, judged against its expectation.
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/settings.hpp"
#include "engine/fault_accounting.hpp"
#include "engine/plugin_set.hpp"
#include "engine/run_outcome_class.hpp"
#include "engine/step_judgement.hpp"
#include "engine/workspace_lease.hpp"
#include "presets/preset.hpp"

namespace sbx::engine {

struct StepOutcome {
    std::string name;
    bool passed = false;
    std::string reason;       // why it failed, "" when it passed
    nlohmann::json result;    // the executor's result
    std::string result_text;  // the same, as the executor wrote it (stored verbatim)
    OutcomeClass outcome = OutcomeClass::accepted;  // how the target ended (the worst copy's)
    nlohmann::json argv;  // the command as run: templates expanded, a relative program resolved
};

struct RunOutcome {
    bool passed = false;  // every copy passed every step
    // The worst class of any copy's any step. Under a robustness scenario with `scoring:
    // robust`, a clean rejection passes and ends the copy's run (later steps do not run).
    OutcomeClass outcome = OutcomeClass::accepted;
    // CONCURRENCY_LEVEL copies of each step run at once; each copy is one execution.
    int executions = 1;
    int passed_executions = 0;
    // Measured by the host: concurrency_level, concurrency_error_rate (failed copies /
    // copies) and concurrency_throughput (copies per second) when copies > 1; plus the
    // `metrics` injectors reported from prepare (the largest over the steps).
    std::map<std::string, double> host_metrics;
    // The `cleanup` reports of every copy's executor result, merged (store/cleanup_counters).
    std::map<std::string, double> cleanup_counters;
    std::string failed_step;
    // Set when an executor said it could not run the target for reasons of its own (a result
    // with `sandbox_fault: true`, such as an engine that did not answer): that error. The
    // host reruns such a run (`sandbox_fault_reruns`); set here, the last try still had one.
    std::string sandbox_fault;
    // Set when the run failed because the executor or an injector could not run a step (an
    // XX result; a service that did not start), not because of the target: that error. Such
    // a run is an error of the run, neither a pass nor a fail (docs/user-guide.md, "Errors
    // are not verdicts").
    std::string harness_error;
    // Why a failed run failed, with exit code or signal and the last stderr lines
    // (engine/failure_detail.hpp); "" when it passed.
    std::string failure_detail;
    double wall_s = 0;
    std::vector<StepOutcome> steps;
    std::vector<std::string> active_injectors;
    // Which of the preset's faults the run got, by source (engine/fault_accounting.hpp).
    FaultTally faults;
};

// What a run is seeded with: the command's `--seed` (in every injector's prepare request)
// and this run's own seed (the run spec's `seed`; see engine/run_seed.hpp).
struct RunSeeds {
    int64_t command = 0;
    uint64_t run = 0;
    // The run's place in its cell (0-based), in every injector's prepare request: a cell's
    // first repetitions get potent first faults (fault_proxy). -1: not part of a cell.
    int repetition = -1;
};

class ServiceSet;

// The services a cell started for all its runs (service_scope: cell): the set, or why it
// could not start (every run of the cell then fails its first step with that reason).
struct SharedServices {
    const ServiceSet *set = nullptr;
    std::string failure;
};

// The folders a step may name paths in that a sandbox must not hide from it: the settings
// file's, the working directory and the plugin folders (an injector's preload shim sits
// beside its plugin), those that exist. The executor shows those a `readonly` view would
// hide (under /tmp), and adds the program, absolute arguments and preload shims itself.
nlohmann::json shown_places(const config::Settings &settings,
                            const std::filesystem::path &invocation_dir);

class WorkflowRunner {
  public:
    // `invocation_dir` resolves relative program paths in `run:`; `state_dir` is where
    // injectors record what a crashed host would leave behind.
    WorkflowRunner(PluginSet &plugins, const config::Settings &settings,
                   std::filesystem::path invocation_dir, std::string state_dir);

    // Runs every step in one fresh workspace, stopping at the first failed step. A run in
    // which the sandbox failed (see RunOutcome::sandbox_fault) is run again from the start,
    // up to `sandbox_fault_reruns` times; host_metrics["sandbox_reruns"] counts them.
    // `counterfactual` replaces each step's command by a no-op through the same executor
    // (and starts no service). The workflow's services run around the run (service_scope:
    // run), or are the cell's `shared` ones.
    RunOutcome run(const config::Workflow &workflow, const presets::Preset &preset,
                   const nlohmann::json &inputs, bool counterfactual, const RunSeeds &seeds,
                   const SharedServices &shared = {});
    // The folder of service records and service folders (purge-stale sweeps it).
    [[nodiscard]] std::filesystem::path services_dir() const { return state_dir_; }

    // The run specs of the workflow's steps as the executor would get them before any
    // injector, in `workspace`: what a shell reproducer of the run is made from.
    std::vector<nlohmann::json> step_specs(const config::Workflow &workflow,
                                           const presets::Preset &preset,
                                           const nlohmann::json &inputs, bool counterfactual,
                                           const std::filesystem::path &workspace);

  private:
    // One try of run().
    RunOutcome run_once(const config::Workflow &workflow, const presets::Preset &preset,
                        const nlohmann::json &inputs, bool counterfactual, const RunSeeds &seeds,
                        const SharedServices &shared);
    // One step's copies as the executor ended them, and how the injectors made its faults
    // (null when no injector reported).
    struct StepExecution {
        std::vector<StepOutcome> copies;
        nlohmann::json reports;
    };

    // Runs `spec` through the injectors and the executor for each live copy; a step with
    // no program, whose injectors cannot set up, or that `cannot_run` says why (a service
    // that did not start, `cannot_run_is_setup`, or one that died), fails every live copy
    // instead. Adds the active injectors and their metrics to
    // `outcome`.
    StepExecution execute_step(const config::Workflow &workflow, const config::Step &step,
                               const presets::Preset &preset, const std::string &preset_text,
                               nlohmann::json spec, const std::vector<bool> &alive,
                               const RunSeeds &seeds, const std::string &cannot_run,
                               bool cannot_run_is_setup, RunOutcome &outcome);
    // Runs one step's spec through `copies` executor instances at once (run ids suffixed
    // "-c<i>"), copies whose `alive` is false skipped; results by copy.
    std::vector<StepOutcome> run_copies(const config::Workflow &workflow,
                                        const presets::Preset &preset, const nlohmann::json &spec,
                                        const std::string &spec_text,
                                        const std::vector<bool> &alive);
    nlohmann::json build_spec(const config::Step &step, const config::Workflow &workflow,
                              const presets::Preset &preset, const presets::Limits &limits,
                              const nlohmann::json &inputs, const std::filesystem::path &workspace,
                              bool counterfactual, uint64_t seed, std::vector<std::string> &notes);

    PluginSet &plugins_;
    const config::Settings &settings_;
    std::filesystem::path invocation_dir_;
    std::string state_dir_;
    WorkspacePool workspaces_;
    // shown_places(settings_, invocation_dir_), found once: a stat per place per run was
    // a tenth of the host's time per run of a fast target.
    nlohmann::json shown_places_;
};

}  // namespace sbx::engine
