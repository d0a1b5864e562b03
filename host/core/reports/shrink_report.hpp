// What `shrink RUN_ID` says of a failed run: what it shrank to (inputs, fault keys, the
// changes that break it, the `$bytes` values readable, its replay line) as `--json` and as
// text, or that the failure did not come back.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "engine/recorded_shrink.hpp"
#include "store/run_lookup.hpp"

namespace sbx::reports {

// "failed at step parse (SG, crashed)": the outcome with the run's outcome class.
std::string failure_text(const store::RecordedRun &run);

// {"run", "session", "reproducible": true, "failure", "minimal", "runs", "max_runs",
//  "inputs", "bytes": {pointer: text}, "original_size", "minimal_size", "bytes_removed",
//  "fault_keys_removed", "preset", "belongs_to", "broken_by", "minimal_run", "replay"};
// `commands` starts the replay line (command_prefix).
nlohmann::json shrink_report(const store::RecordedRun &original,
                             const engine::RecordedShrink &shrunk, int max_runs,
                             const std::string &commands);

// The text of a shrunk failure, from its shrink_report.
std::string shrink_text(const store::RecordedRun &original, const engine::ShrinkResult &result,
                        const nlohmann::json &report, int max_runs);

// A failure that did not come back, as `--json` and as text: nothing to shrink.
nlohmann::json not_reproducible_json(const store::RecordedRun &original,
                                     const engine::RecordedShrink &shrunk);
std::string not_reproducible_text(const store::RecordedRun &original,
                                  const engine::RecordedShrink &shrunk);

// The `$bytes` values of `value` by JSON pointer (RFC 6901), as readable text.
nlohmann::json bytes_by_pointer(const nlohmann::json &value);

}  // namespace sbx::reports
