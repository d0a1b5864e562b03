// `sandbox-runner explore`: a budget of runs spent on one workflow the way a coverage-guided
// fuzzer spends executions, with a whole run as the unit. The inputs of one slot come from
// the preset's stub strategy (hostile: structural edits of a json slot's example); an input
// the program accepted whose run reached lines no earlier run had (the coverage collector's
// `new_lines_in_cell`) joins a corpus, and the next runs are the strategy's edits of that
// input, newest first:
// AFL's loop. Without coverage data the corpus stays the example and the runs walk its
// edits in order. Every run is a recorded run of one cell; crashes, hangs and other
// failures are counted once per kind (engine/crash_signature.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/cell_runner.hpp"
#include "engine/crash_signature.hpp"
#include "engine/input_corpus.hpp"
#include "engine/plugin_set.hpp"
#include "engine/run_observer.hpp"

namespace sbx::engine {

struct ExploreSettings {
    std::string slot;  // "" = the first json slot with an example, else the first slot
    int runs = 1000;
    int64_t seed = 1;
    int batch = 32;  // sets asked of the strategy at a time for one corpus input
    // Values of the slot an earlier explore kept (its corpus): mutated before the example.
    std::vector<nlohmann::json> corpus;
};

struct ExploreCrash {
    CrashSignature signature;
    int64_t run_id = 0;  // the first run that crashed this way
    int found_at = 0;    // how many runs it took (1 = the first)
    int hits = 0;        // runs that crashed this way
};

struct ExploreOutcome {
    std::string slot;
    int runs = 0;
    // Whether any run gave coverage data: without it the corpus cannot grow.
    bool coverage = false;
    int runs_with_new_lines = 0;
    // The inputs the program accepted that reached new lines, in order (a refused input's
    // new lines are its refusal's: it does not join).
    std::vector<nlohmann::json> corpus;
    std::vector<ExploreCrash> crashes;  // one per kind, in the order found
    bool exhausted = false;             // the strategy had no new input left to give
    int accepted = 0;                   // runs whose input the program took in
    // The stderr of the first run the program refused, when none was accepted: a setup
    // that refuses everything (a script path the workspace does not have) looks like one.
    std::string first_refusal;
};

// Runs the loop in `cells` (runs recorded in its session; the cell is finished at the end).
// `observer` (may be null) sees each run. Throws Cancelled when the host is stopping.
ExploreOutcome explore(PluginSet &plugins, CellRunner &cells, store::Store &store,
                       const config::Workflow &workflow, const presets::Preset &preset,
                       const ExploreSettings &settings, RunObserver *observer);

}  // namespace sbx::engine
