// Module rankings as JSON.
#include "reports/module_rankings.hpp"

namespace sbx::reports {

using nlohmann::json;

json rankings_json(const scoring::Tracker &tracker) {
    json rankings = json::array();
    for (const auto &ranking : tracker.rankings()) {
        rankings.push_back({{"module", ranking.module},
                            {"raroi_total", ranking.raroi_total},
                            {"roi_delta_total", ranking.roi_delta_total},
                            {"converged", tracker.converged(ranking.module)}});
    }
    return rankings;
}

}  // namespace sbx::reports
