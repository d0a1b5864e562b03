// Errors are not verdicts. A run in which an injector or the executor failed, or a service
// did not start, says nothing about the target; when such errors dominate a scenario's runs
// (or hit both its cells) the scenario has no verdict: it is inconclusive. And a workflow
// that fails every run with no fault at all is broken: then no fault is to blame.
#pragma once

#include <string>

#include "engine/cell_work.hpp"

namespace sbx::engine {

// "injector 'network' could not prepare ... (errors in 13 of 13 on-runs, 13 of 13 off-runs)"
// when errors make up half or more of either cell's runs, or hit both cells; "" otherwise.
std::string inconclusive_reason(const CellSummary &on, const CellSummary &off);

// For the `normal` scenario's on-cell: "every run of normal failed (3 of 3): step 'fetch':
// exit code 3; stderr: ..." when every run that was not an error failed; "" otherwise, and
// for every other scenario.
std::string broken_reason(const std::string &scenario, const CellSummary &on);

// The most frequent error of a cell's errored runs (the first in order on ties); "" for none.
std::string most_frequent_error(const CellSummary &cell);

}  // namespace sbx::engine
