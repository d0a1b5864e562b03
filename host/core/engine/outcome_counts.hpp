// Counting outcome classes. Each run carries them as metrics — `outcome_<class>` = 1 and
// `outcome_<class>.<category>` = 1 for each input category of its set — so a cell's mean
// times its runs gives the counts, and a recovered cell has them from the store.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "engine/run_outcome_class.hpp"

namespace sbx::engine {

// The run metrics of one run of class `outcome` fed the set `input_meta` describes.
std::map<std::string, double> outcome_metrics(OutcomeClass outcome,
                                              const nlohmann::json &input_meta);

struct OutcomeCounts {
    std::map<std::string, int> by_class;  // every class, 0 when none
    // category -> class -> runs (only the non-zero counts)
    std::map<std::string, std::map<std::string, int>> by_category;
};

// The counts of a cell of `runs` runs from its mean metrics.
OutcomeCounts outcome_counts(const std::map<std::string, double> &metrics, int runs);

// {"accepted": n, "rejected": n, "crashed": n, "hung": n, "failed": n, "by_category":
// {category: {class: n}}}
nlohmann::json outcome_counts_json(const OutcomeCounts &counts);

// "8 rejected cleanly, 0 crashed, 0 hung", then ", 2 accepted" and ", 1 failed otherwise"
// when there are any.
std::string outcome_counts_text(const OutcomeCounts &counts);

// "crashed on format_string (2), oversized (1)": the categories of the runs of `outcome`,
// most runs first; "" when none.
std::string categories_text(const OutcomeCounts &counts, OutcomeClass outcome);

// outcome_counts_text, then the categories the target crashed and hung on:
// "6 rejected cleanly, 2 crashed, 0 hung, 4 accepted; crashed on format_string (2)".
std::string outcome_line(const OutcomeCounts &counts);

}  // namespace sbx::engine
