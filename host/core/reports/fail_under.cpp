// Judging a run against --fail-under.
#include "reports/fail_under.hpp"

#include <cstdio>

namespace sbx::reports {

namespace {

// "0.400", as %.3f writes it.
std::string three_decimals(double value) {
    char text[64];
    std::snprintf(text, sizeof(text), "%.3f", value);
    return text;
}

}  // namespace

std::string fail_under_failure(const std::vector<engine::CellSummary> &cells, double fail_under) {
    if (fail_under < 0) {
        return "";
    }
    for (const auto &cell : cells) {
        if (cell.roi < fail_under) {
            return "ROI " + three_decimals(cell.roi) + " under preset '" + cell.preset +
                   "' is below --fail-under " + three_decimals(fail_under);
        }
    }
    return "";
}

std::string fail_under_failure(const nlohmann::json &simulation_report, double fail_under) {
    if (fail_under < 0) {
        return "";
    }
    for (const auto &entry : simulation_report["presets"]) {
        for (const auto &part : entry["parts"]) {
            if (part["roi"].get<double>() < fail_under) {
                return "ROI " + three_decimals(part["roi"].get<double>()) + " of " +
                       part["name"].get<std::string>() + " under preset '" +
                       entry["preset"].get<std::string>() + "' is below --fail-under " +
                       three_decimals(fail_under);
            }
        }
    }
    return "";
}

}  // namespace sbx::reports
