// Degradation, resilience and stability per stage of the temporal trajectory.
#include "scoring/trajectory.hpp"

#include "scoring/statistics.hpp"

namespace sbx::scoring {

std::vector<std::string> trajectory_stage_names() {
    return {"normal", "high_latency", "resource_strain", "schema_drift", "chaotic_failure"};
}

std::vector<StageMetrics> trajectory_metrics(
    const std::vector<std::pair<std::string, double>> &stage_rois) {
    std::vector<StageMetrics> out;
    std::vector<double> rois_so_far;
    for (const auto &[stage, roi] : stage_rois) {
        rois_so_far.push_back(roi);
        const double roi_normal = rois_so_far.front();
        StageMetrics metrics;
        metrics.stage = stage;
        metrics.roi = roi;
        metrics.degradation = roi_normal - roi;
        metrics.resilience = roi_normal == 0 ? 0 : roi / roi_normal;
        // sample_stddev is 0 for the first stage, which makes its stability 1.
        metrics.stability = 1 / (1 + sample_stddev(rois_so_far));
        out.push_back(metrics);
    }
    return out;
}

}  // namespace sbx::scoring
