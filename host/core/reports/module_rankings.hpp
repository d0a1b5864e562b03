// The tracker's module rankings as the simulations and the autonomous loop report them: by
// total RAROI, each with its ROI delta and whether it has converged.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "scoring/tracker.hpp"

namespace sbx::reports {

// [{"module", "raroi_total", "roi_delta_total", "converged"}], by total RAROI.
nlohmann::json rankings_json(const scoring::Tracker &tracker);

// "module rankings (<scope>)" after a blank line, and one line per module of `rankings`
// (rankings_json).
std::string rankings_text(const std::string &scope, const nlohmann::json &rankings);

}  // namespace sbx::reports
