// Runs a list of cells on a pool of worker threads. Each worker owns its own plugin
// instances (the ABI serializes calls per instance, so sharing one executor would make
// the pool serial) and its own workspaces; all results go through the one shared Store.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <vector>

#include "engine/cell_runner.hpp"
#include "engine/plugin_set.hpp"
#include "engine/remote_runs.hpp"
#include "engine/run_observer.hpp"
#include "engine/session_recovery.hpp"

namespace sbx::engine {

struct CellPlan {
    const config::Workflow *workflow = nullptr;
    presets::Preset preset;
    CellOptions options;
};

// The cells of `workflow` under each of `presets`, in order, each with `options`.
std::vector<CellPlan> preset_cell_plans(const config::Workflow &workflow,
                                        const std::vector<presets::Preset> &presets,
                                        const CellOptions &options);

struct MatrixContext {
    const config::Settings &settings;
    const plugins::Registry &registry;
    store::Store &store;
    int64_t session_id = 0;
    std::filesystem::path invocation_dir;
    std::filesystem::path state_dir;
    // --recover: `session_id` is an interrupted session; its recorded cells and committed
    // runs are kept, and only the missing repetitions run.
    bool recover = false;
    // Told of every run (the progress line); nullptr: nobody watches.
    RunObserver *observer = nullptr;
    // `--on slurm`: the runs are made by these, and merged into `store`; nullptr: here.
    RemoteRuns *remote = nullptr;
    // A worker: only these runs are made, then ShardFinished is thrown; nullptr: all.
    const ShardAssignment *shard = nullptr;
};

class MatrixRunner {
  public:
    // `primary` serves the first worker: the caller created it already to check every
    // plugin before anything was recorded.
    MatrixRunner(const MatrixContext &context, PluginSet &primary, unsigned workers);

    // Runs every plan and returns the summaries in plan order. Runs are taken in plan
    // order by whichever worker is free. The first error stops the pool from starting new
    // runs; once every worker is idle it is rethrown (Cancelled included). When recovering,
    // a cell the session recorded is restored, not run, and a committed run is kept.
    std::vector<CellSummary> run(const std::vector<CellPlan> &plans);

  private:
    // The remote half of run(): `tasks` made elsewhere, then every cell's slots filled
    // from what the session now holds.
    void run_remotely(const std::vector<PlannedRun> &tasks, std::vector<CellWork> &work,
                      const std::vector<CellPlan> &plans);

    const MatrixContext &context_;
    PluginSet &primary_;
    unsigned workers_;
    // Loaded on the first run() when recovering: one interrupted session, handed out once
    // across every run() of this runner.
    std::optional<SessionRecovery> recovery_;
};

}  // namespace sbx::engine
