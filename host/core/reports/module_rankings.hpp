// The tracker's module rankings as the simulations and the autonomous loop report them: by
// total RAROI, each with its ROI delta and whether it has converged.
#pragma once

#include <nlohmann/json.hpp>

#include "scoring/tracker.hpp"

namespace sbx::reports {

// [{"module", "raroi_total", "roi_delta_total", "converged"}], by total RAROI.
nlohmann::json rankings_json(const scoring::Tracker &tracker);

}  // namespace sbx::reports
