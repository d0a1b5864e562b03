// The rankings as the rank-* commands print them: three decimals and never "-0.000", a
// heading per workflow only when several are ranked apart, and the JSON's keys and nulls.
#include <gtest/gtest.h>

#include "ranking/ranking_listing.hpp"

namespace {

using namespace sbx::ranking;

ScenarioRank rank(const std::string &workflow, const std::string &scenario, double roi,
                  int64_t cells) {
    ScenarioRank row;
    row.workflow = workflow;
    row.scenario = scenario;
    row.roi = roi;
    row.cells = cells;
    return row;
}

TEST(RankingListing, OneWorkflowHasNoHeadingAndSaysSumAndMean) {
    auto first = rank("checkout", "calm", 2.5, 2);
    first.security_score = 0.8;
    const std::vector<ScenarioRank> rows{first, rank("checkout", "spike", 0.5, 1)};
    EXPECT_EQ(scenario_ranking_text(rows, WorkflowGrouping::each_workflow),
              "calm ROI=2.500 (sum of 2 cells, mean 1.250) security_score=0.800\n"
              "spike ROI=0.500 (sum of 1 cell, mean 0.500)\n");
}

TEST(RankingListing, SeveralWorkflowsEachGetAHeadingAndIndentedRows) {
    const std::vector<ScenarioRank> rows{rank("", "calm", 1, 1), rank("checkout", "spike", 1, 1)};
    EXPECT_EQ(scenario_ranking_text(rows, WorkflowGrouping::each_workflow),
              "workflow not recorded (roi_history.json):\n"
              "  calm ROI=1.000 (sum of 1 cell, mean 1.000)\n"
              "workflow checkout:\n"
              "  spike ROI=1.000 (sum of 1 cell, mean 1.000)\n");
}

TEST(RankingListing, AZeroButForRoundingIsNeverNegative) {
    const std::vector<ScenarioRank> rows{rank("", "calm", -0.0001, 1)};
    EXPECT_EQ(scenario_ranking_text(rows, WorkflowGrouping::all_workflows),
              "calm ROI=0.000 (sum of 1 cell, mean 0.000)\n");
}

TEST(RankingListing, ScenarioJsonNamesTheWorkflowOnlyWhenRankedPerWorkflow) {
    const std::vector<ScenarioRank> rows{rank("", "calm", 3, 2)};
    const auto per_workflow = scenario_ranking_json(rows, WorkflowGrouping::each_workflow);
    EXPECT_EQ(per_workflow.dump(),
              R"([{"workflow":null,"scenario":"calm","roi":3.0,"cells":2,"mean_roi":1.5}])");
    const auto all = scenario_ranking_json(rows, WorkflowGrouping::all_workflows);
    EXPECT_FALSE(all[0].contains("workflow"));
    EXPECT_FALSE(all[0].contains("security_score"));
}

TEST(RankingListing, SynergyRowsCarryTheMetricName) {
    SynergyRanking ranking;
    ranking.metric = "synergy_roi";
    ranking.rows = {{"calm", 0.25}, {"spike", -1.5}};
    EXPECT_EQ(synergy_ranking_text(ranking), "calm synergy_roi=0.250\nspike synergy_roi=-1.500\n");
    EXPECT_EQ(
        synergy_ranking_json(ranking).dump(),
        R"([{"scenario":"calm","synergy_roi":0.25},{"scenario":"spike","synergy_roi":-1.5}])");
}

}  // namespace
