// How much of what a stub strategy can produce a cell's inputs tried: the distinct
// categories (hostile), kinds (misuse) or changes (legacy_schema) its sets carried — a
// polyglot's parts counted as their own categories — against the categories the strategy
// said its slots could receive (the `categories` list of its answer). A robustness scenario
// that passed after one input says little; the report says how many it tried.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace sbx::engine {

// Cell metrics, per strategy that tagged any set:
//   <strategy>_categories_tried   distinct tags over the cell's sets
//   <strategy>_categories         what the strategy said it could produce (absent when it
//                                 did not say)
// `meta`: the cell's per-set meta ({strategy: {slot: entry}} or null); `reachable`:
// {strategy: [category, ...]} from the strategies' answers.
std::map<std::string, double> input_coverage_metrics(const nlohmann::json &meta,
                                                     const nlohmann::json &reachable);

// "13 inputs, 16 of 16 hostile categories" from a cell's metrics and run count, then, when
// the cell learned from coverage, "; coverage feedback: 3 inputs that reached new lines, 187
// runs of their edits"; "" when no strategy tagged its inputs.
std::string input_coverage_text(const std::map<std::string, double> &metrics, int runs);

// {strategy: {"tried": n, "of": m or null}} for JSON reports.
nlohmann::json input_coverage_json(const std::map<std::string, double> &metrics);

}  // namespace sbx::engine
