// What broke a target, by the stub strategies' own tags: a hostile payload's category, a
// misuse's kind, a schema change. Each run gets metrics that a cell's mean turns into
// shares of runs.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sbx::engine {

// For a run whose set `input_meta` describes ({strategy: {slot: tags}}, null when no
// strategy said anything):
//   inputs_tried                 the number of values in `inputs`
//   <strategy>_failures          1 when the run failed, 0 when it passed
//   <strategy>_failures.<tag>    1 for each tag of a failed run's set (`category`, `kind` or
//                                `change` of each slot's entry; hostile_failures.sql_injection)
//   schema_mismatches, schema_mismatch_rate, schema_errors
//                                for sets with drifted JSON slots (legacy_schema's lists of
//                                {field, change}): fields changed, changed / fields before,
//                                1 when the run failed on them
std::map<std::string, double> stub_failure_metrics(const nlohmann::json &input_meta,
                                                   const nlohmann::json &inputs, bool passed);

// Every tag of a run's set (`category`, `kind` or `change` of each slot's entry, of every
// strategy), each once, sorted: the input categories the run was fed.
std::vector<std::string> input_tags(const nlohmann::json &input_meta);

// The tags of a cell's failures from its mean metrics ("hostile": {"sql_injection": 0.25}):
// every `<strategy>_failures.<tag>` above zero.
std::map<std::string, std::map<std::string, double>> failure_tags(
    const std::map<std::string, double> &metrics);

}  // namespace sbx::engine
