// Synergy as the combined result minus the mean of the parts. Rationale: a metric only
// some parts report is averaged over those parts, since a part without it did not measure
// it (it is not a zero); a metric no part reports has no baseline and is left out.
#include "scoring/synergy.hpp"

#include "scoring/statistics.hpp"

namespace sbx::scoring {

SynergyResult synergy(const CellResult &combined, const std::vector<CellResult> &parts) {
    SynergyResult result;
    if (parts.empty()) {
        return result;
    }
    std::vector<double> part_rois;
    part_rois.reserve(parts.size());
    for (const CellResult &part : parts) {
        part_rois.push_back(part.roi);
    }
    result.synergy_roi = combined.roi - mean(part_rois);
    for (const auto &[name, value] : combined.metrics) {
        std::vector<double> part_values;
        for (const CellResult &part : parts) {
            if (auto found = part.metrics.find(name); found != part.metrics.end()) {
                part_values.push_back(found->second);
            }
        }
        if (!part_values.empty()) {
            result.synergy_metrics["synergy_" + name] = value - mean(part_values);
        }
    }
    return result;
}

}  // namespace sbx::scoring
