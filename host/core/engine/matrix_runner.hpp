// Runs a list of cells on a pool of worker threads. Each worker owns its own plugin
// instances (the ABI serializes calls per instance, so sharing one executor would make
// the pool serial) and its own workspaces; all results go through the one shared Store.
#pragma once

#include <filesystem>
#include <functional>
#include <vector>

#include "engine/cell_runner.hpp"
#include "engine/plugin_set.hpp"

namespace sbx::engine {

struct CellPlan {
    const config::Workflow *workflow = nullptr;
    presets::Preset preset;
    CellOptions options;
};

struct MatrixContext {
    const config::Settings &settings;
    const plugins::Registry &registry;
    store::Store &store;
    int64_t session_id = 0;
    std::filesystem::path invocation_dir;
    std::filesystem::path state_dir;
};

class MatrixRunner {
  public:
    // `primary` serves the first worker: the caller created it already to check every
    // plugin before anything was recorded.
    MatrixRunner(const MatrixContext &context, PluginSet &primary, unsigned workers);

    // Runs every plan whose `skip` entry is false (an empty `skip` runs all) and returns
    // the summaries in plan order (skipped entries are left default). Cells are taken in
    // plan order by whichever worker is free. The first error stops the pool from
    // starting new cells; once every worker is idle it is rethrown (Cancelled included).
    std::vector<CellSummary> run(const std::vector<CellPlan> &plans,
                                 const std::vector<bool> &skip = {});

  private:
    const MatrixContext &context_;
    PluginSet &primary_;
    unsigned workers_;
};

}  // namespace sbx::engine
