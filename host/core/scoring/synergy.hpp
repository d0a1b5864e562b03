// Synergy (docs/semantics.md "Synergy"): what running parts together (sections of a target, or
// workflows) gains or loses compared with the average of running them one by one.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "scoring/scenario_scores.hpp"

namespace sbx::scoring {

struct SynergyResult {
    // roi_combined − mean of the parts' ROI.
    double synergy_roi = 0;
    // "synergy_<m>" -> combined[m] − mean of m over the parts that have m, for each metric
    // of the combined run that at least one part has.
    std::map<std::string, double> synergy_metrics;
};

// The synergy of `combined` over `parts`. With no parts there is nothing to compare
// against: the result is synergy_roi 0 and no metrics.
SynergyResult synergy(const CellResult &combined, const std::vector<CellResult> &parts);

}  // namespace sbx::scoring
