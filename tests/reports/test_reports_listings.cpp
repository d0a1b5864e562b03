// The listings the reports render as text and JSON: show-synergy's table, the module
// rankings' lines and `workflows list` (the settings' workflows, then the imported ones).
#include <gtest/gtest.h>

#include "reports/module_rankings.hpp"
#include "reports/synergy_summary.hpp"
#include "reports/workflow_list.hpp"
#include "store/workflow_table.hpp"
#include "util/temp_dir.hpp"

namespace sbx::reports {
namespace {

using nlohmann::json;

TEST(SynergySummaryListing, TheNameColumnIsAsWideAsTheLongestName) {
    const std::map<std::string, SynergySummary> summaries{{"synergy_roi", {0.5, 0.25, 3}},
                                                          {"x", {-1, 2.125, 1}}};
    EXPECT_EQ(synergy_summary_table(summaries, 5),
              "metric           latest      ema(5)\n"
              "synergy_roi       0.500       0.250\n"
              "x                -1.000       2.125\n");
    EXPECT_EQ(synergy_summary_json(summaries, 5).dump(),
              R"({"window":5,"metrics":{"synergy_roi":{"latest":0.5,"ema":0.25,"points":3},)"
              R"("x":{"latest":-1.0,"ema":2.125,"points":1}}})");
}

TEST(SynergySummaryListing, NothingRecordedIsAnEmptyObject) {
    EXPECT_EQ(synergy_summary_json({}, 3).dump(), R"({"window":3,"metrics":{}})");
}

TEST(ModuleRankingsText, SaysTheScopeAndWhichConverged) {
    const json rankings = json::array({{{"module", "checkout"},
                                        {"raroi_total", 1.5},
                                        {"roi_delta_total", -0.25},
                                        {"converged", true}},
                                       {{"module", "login"},
                                        {"raroi_total", 0.0},
                                        {"roi_delta_total", 0.0},
                                        {"converged", false}}});
    EXPECT_EQ(rankings_text("by total RAROI", rankings),
              "\nmodule rankings (by total RAROI)\n"
              "  checkout                         raroi    1.500   roi delta   -0.250   converged\n"
              "  login                            raroi    0.000   roi delta   +0.000\n");
}

TEST(WorkflowList, SettingsWorkflowsThenImportedOnesShadowedByName) {
    const TempDir dir(std::filesystem::temp_directory_path(), "sbx-workflow-list-");
    config::Settings settings;
    settings.source = "settings.yaml";
    settings.data_dir = dir.path().string();
    config::Workflow checkout;
    checkout.name = "checkout";
    checkout.id = 7;
    settings.workflows = {checkout};
    EXPECT_EQ(workflow_list(settings).dump(),
              R"([{"id":7,"name":"checkout","source":"settings.yaml","steps":0}])");

    {
        store::Store store(dir.path() / "metrics.db");
        (void)store::import_workflow(store, {0, "checkout", "{name: checkout}", "a.yaml", ""});
        (void)store::import_workflow(store, {0, "login", "{name: login}", "b.yaml", ""});
    }
    const auto rows = workflow_list(settings);
    ASSERT_EQ(rows.size(), 3U);
    EXPECT_TRUE(rows[1]["shadowed"].get<bool>());
    EXPECT_FALSE(rows[2]["shadowed"].get<bool>());
    const std::string database = (dir.path() / "metrics.db").string();
    EXPECT_EQ(rows[2]["source"], database + " (imported from b.yaml)");
    const auto table = workflow_list_table(rows);
    EXPECT_EQ(table.substr(0, table.find('\n')), "id     name                     source");
    EXPECT_NE(table.find("checkout                 " + database +
                         " (imported from a.yaml) (shadowed by the settings)\n"),
              std::string::npos);
}

}  // namespace
}  // namespace sbx::reports
