// What a failure found by a polyglot really was: run-scenarios shrinks the first such run
// of each robustness scenario (a small run budget, its own `shrink RUN_ID` session) and
// names the polyglot part its shrunk input belongs to, so `broken by` says
// `format_string`, not `polyglot`.
#pragma once

#include "config/settings.hpp"
#include "plugins/registry.hpp"
#include "reports/scenario_summary.hpp"
#include "store/store.hpp"

namespace sbx::reports {

// Fills run.shrunk for every robustness scenario whose on-cell has a polyglot failure.
// A shrink that cannot run (the plugin set refuses, the store fails) is logged and left
// out: the matrix's verdict stands without it.
void shrink_polyglot_failures(const config::Settings &settings, plugins::Registry &registry,
                              store::Store &store, const config::Workflow &workflow,
                              ScenarioRun &run, int max_runs);

}  // namespace sbx::reports
