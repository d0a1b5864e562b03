// The rankings as JSON and as text lines: what rank-scenarios, rank-synergy and
// rank-scenario-synergy print, kept here so the rounding and the headings are tested.
#include "ranking/ranking_listing.hpp"

#include <cmath>
#include <cstdio>

namespace sbx::ranking {
namespace {

// Ordered: "scenario" first, as in the text lines.
using json = nlohmann::ordered_json;

// Three decimals, and never "-0.000" for a total that is zero but for rounding.
std::string decimal(double value) {
    char text[64];
    std::snprintf(text, sizeof(text), "%.3f", std::fabs(value) < 0.0005 ? 0.0 : value);
    return text;
}

// The heading of a workflow's ranking: "" is a roi_history.json's, which records none.
std::string workflow_heading(const std::string &workflow) {
    return workflow.empty() ? "workflow not recorded (roi_history.json):"
                            : "workflow " + workflow + ":";
}

}  // namespace

json scenario_ranking_json(const std::vector<ScenarioRank> &rows, WorkflowGrouping grouping) {
    const bool each_workflow = grouping == WorkflowGrouping::each_workflow;
    json list = json::array();
    for (const auto &row : rows) {
        json object;
        if (each_workflow) {
            object["workflow"] = row.workflow.empty() ? json() : json(row.workflow);
        }
        object.update(json{{"scenario", row.scenario},
                           {"roi", row.roi},
                           {"cells", row.cells},
                           {"mean_roi", row.mean_roi()}});
        if (row.security_score) {
            object["security_score"] = *row.security_score;
        }
        list.push_back(object);
    }
    return list;
}

std::string scenario_ranking_text(const std::vector<ScenarioRank> &rows,
                                  WorkflowGrouping grouping) {
    // The ranking is by the sum (a scenario recorded more often weighs more, as the original
    // tool ranked); the line says so, with the mean that compares scenarios run unequally.
    // Several workflows: a heading each, the ranking of its scenarios indented under it.
    const bool headings = grouping == WorkflowGrouping::each_workflow && !rows.empty() &&
                          rows.front().workflow != rows.back().workflow;
    std::string text;
    for (size_t i = 0; i < rows.size(); ++i) {
        const auto &row = rows[i];
        if (headings && (i == 0 || rows[i - 1].workflow != row.workflow)) {
            text += workflow_heading(row.workflow) + '\n';
        }
        text += (headings ? "  " : "") + row.scenario + " ROI=" + decimal(row.roi) + " (sum of " +
                std::to_string(row.cells) + " cell" + (row.cells == 1 ? "" : "s") + ", mean " +
                decimal(row.mean_roi()) + ")";
        if (row.security_score) {
            text += " security_score=" + decimal(*row.security_score);
        }
        text += '\n';
    }
    return text;
}

json synergy_ranking_json(const SynergyRanking &ranking) {
    json list = json::array();
    for (const auto &row : ranking.rows) {
        list.push_back({{"scenario", row.scenario}, {ranking.metric, row.value}});
    }
    return list;
}

std::string synergy_ranking_text(const SynergyRanking &ranking) {
    std::string text;
    for (const auto &row : ranking.rows) {
        text += row.scenario + ' ' + ranking.metric + '=' + decimal(row.value) + '\n';
    }
    return text;
}

}  // namespace sbx::ranking
