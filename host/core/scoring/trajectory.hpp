// The temporal trajectory (docs/semantics.md "Temporal trajectory"): how a workflow's ROI holds
// up as stages of growing hostility follow one another.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace sbx::scoring {

struct StageMetrics {
    std::string stage;
    double roi = 0;
    double degradation = 0;  // roi_normal − roi, where roi_normal is the first stage's ROI
    double resilience = 0;   // roi / roi_normal; 0 when roi_normal is 0
    double stability = 1;    // 1 / (1 + sample σ of the ROIs up to this stage); 1 at first
};

// The stages in the order docs/semantics.md gives them: normal, high_latency, resource_strain,
// schema_drift, chaotic_failure.
std::vector<std::string> trajectory_stage_names();

// The metrics of each (stage, roi), in the order given; the first stage is the reference.
std::vector<StageMetrics> trajectory_metrics(
    const std::vector<std::pair<std::string, double>> &stage_rois);

}  // namespace sbx::scoring
