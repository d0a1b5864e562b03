// Module rankings as JSON, and as the lines a command prints.
#include "reports/module_rankings.hpp"

#include "util/text_format.hpp"

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

std::string rankings_text(const std::string &scope, const nlohmann::json &rankings) {
    std::string text = "\nmodule rankings (" + scope + ")\n";
    for (const auto &ranking : rankings) {
        text += util::format_text("  %-32s raroi %8.3f   roi delta %+8.3f%s\n",
                                  ranking["module"].get<std::string>().c_str(),
                                  ranking["raroi_total"].get<double>(),
                                  ranking["roi_delta_total"].get<double>(),
                                  ranking["converged"].get<bool>() ? "   converged" : "");
    }
    return text;
}

}  // namespace sbx::reports
