// Risk-adjusted ROI (RAROI, docs/semantics.md "RAROI"): the ROI discounted by how likely a
// rollback is, what it would cost, how unstable the ROI has been and how unsafe the runs were.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "scoring/impact_severity.hpp"

namespace sbx::scoring {

// How many of the most recent ROI values the instability is measured over.
constexpr size_t kRaroiWindow = 5;

struct RaroiInputs {
    // The ROI being adjusted.
    double roi = 0;
    // ROI values of recent cycles, oldest first. Only the last kRaroiWindow count.
    // Rationale: instability is the population σ of that window, not the sample σ: the
    // window is the whole population we judge (not a sample of a larger one), and with
    // few values the sample σ would swing too much to be a fair discount.
    std::vector<double> recent_rois;
    double errors_per_minute = 0;  // a rollback is certain at 10 errors per minute
    double flakiness = 0;          // a rollback is certain at a flakiness of 5
    double failure_rate = 0;       // share of failed executions, in [0, 1]
    // The workflow type whose severity applies (see ImpactSeverity).
    std::string impact = "standard";
    // Safety or security scores in [0, 1]; their mean is the safety factor (1 when none).
    std::vector<double> safety_scores;
    // Counts of failures; a negative count is taken as 0.
    int hostile_failures = 0;
    int misuse_failures = 0;
    int failed_suites = 0;
};

// Every factor of the result, so reports can show why a RAROI is low.
struct RaroiBreakdown {
    double raroi = 0;
    double rollback_p = 0;   // clip(max(errors/10, flakiness/5, failure_rate, instability), 0, 1)
    double impact = 0;       // severity of the workflow type
    double instability = 0;  // population σ of the last kRaroiWindow ROI values
    double safety = 1;       // mean of the safety scores
    double penalty = 1;      // 1 / (1 + hostile + misuse) · 0.5^failed_suites
};

// raroi = roi · (1 − rollback_p · impact) · max(0, 1 − instability) · clip(safety · penalty,
// 0, 1). Throws InputError when `inputs.impact` is not a known type.
RaroiBreakdown raroi(const RaroiInputs &inputs, const ImpactSeverity &severity);

// What scoring a single cell needs to turn its ROI into a RAROI.
struct RaroiContext {
    ImpactSeverity severity;
    // The workflow's `impact:` type.
    std::string impact = "standard";
};

}  // namespace sbx::scoring
