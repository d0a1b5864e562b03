// The RAROI formula of docs/semantics.md, factor by factor.
#include "scoring/raroi.hpp"

#include <algorithm>
#include <cmath>

#include "scoring/statistics.hpp"

namespace sbx::scoring {

RaroiBreakdown raroi(const RaroiInputs &inputs, const ImpactSeverity &severity) {
    RaroiBreakdown out;
    out.impact = impact_of(severity, inputs.impact);
    out.instability = population_stddev(last_values(inputs.recent_rois, kRaroiWindow));
    out.rollback_p = clip(std::max({inputs.errors_per_minute / 10, inputs.flakiness / 5,
                                    inputs.failure_rate, out.instability}),
                          0, 1);
    out.safety = inputs.safety_scores.empty() ? 1 : mean(inputs.safety_scores);
    // A negative count would make the penalty exceed 1 or divide by zero; summing as
    // double keeps two huge counts from overflowing int.
    const double failures = static_cast<double>(std::max(inputs.hostile_failures, 0)) +
                            static_cast<double>(std::max(inputs.misuse_failures, 0));
    out.penalty = 1 / (1 + failures) * std::pow(0.5, std::max(inputs.failed_suites, 0));
    out.raroi = inputs.roi * (1 - out.rollback_p * out.impact) *
                std::max(0.0, 1 - out.instability) * clip(out.safety * out.penalty, 0, 1);
    return out;
}

}  // namespace sbx::scoring
