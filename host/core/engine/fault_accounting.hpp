// Fault accounting: which of a preset's faults each run really got. A scenario's verdict means
// something only if its faults happened; one whose on-runs got none of them (no credentials
// to invalidate, a limit the executor could not hold, an injector that is not loaded) is not
// applicable, never a pass (docs/user-guide.md, "What each scenario injects").
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "presets/preset.hpp"

namespace sbx::engine {

// What one run got, by source: an injector's id, "limit <name>" for an executor's limit,
// "copies" for CONCURRENCY_LEVEL.
struct FaultTally {
    std::map<std::string, std::string> applied;      // source -> what ("invalidated API_TOKEN")
    std::map<std::string, std::string> not_applied;  // source -> why not
    // source -> the faults it asked for that the run did not meet, beside some it did
    // ("no connection reset (1 per 20 connections, 1 made)").
    std::map<std::string, std::string> missed;

    // Folds another step's tally in: a source applied in any step was applied in the run.
    void merge(const FaultTally &other);
};

// The preset's faults on the run's environment (not its inputs): the keys and failure modes
// that some injector, the executor's limits or the host act on, sorted. Empty for `normal`
// and for the input scenarios (hostile_input, user_misuse, schema_drift).
std::vector<std::string> environment_faults(const presets::Preset &preset);

// Which built-in plugin acts on a preset key or failure mode: "network", "fault_proxy", ...,
// "the executor" for a limit, "the host" for CONCURRENCY_LEVEL; "" for one no built-in does.
std::string built_in_handler(const std::string &key_or_mode);

// An active injector's prepare response into `tally`: its `applied` list (what it did; empty:
// nothing, with `not_applied` saying why) and `missed` list (what it asked for that the run
// did not meet), or, from an injector that does not say, "active".
void add_injector_response(FaultTally &tally, const std::string &id,
                           const nlohmann::json &response);

// The limits `preset` sets, as the executor's result says it enforced them (`enforcement`:
// "none (...)" is not enforced, and `downgraded` entries that got "nothing"). A result without
// `enforcement` (an executor that does not say) is taken at its word.
void add_limits(FaultTally &tally, const presets::Preset &preset, const nlohmann::json &result);

// The run's metrics of a tally: faults_applied (1 when anything was applied),
// faults_applied.<source> = 1 for each source applied and faults_missed.<source> = 1 for each
// that missed part of its faults. A cell's mean times its runs counts the runs.
std::map<std::string, double> fault_metrics(const FaultTally &tally);

// "latency 500 ms (network) in 13/13 runs; 8 copies at once in 13/13 runs; fault_proxy missed
// in 12/13 runs: no connection reset (...)" from a cell's mean metrics over `runs` runs and the
// texts of its tallies (the first run's words); "" when nothing was applied.
std::string injected_text(const std::map<std::string, double> &metrics, int runs,
                          const FaultTally &texts);

}  // namespace sbx::engine
