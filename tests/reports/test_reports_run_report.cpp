// The table and JSON of `run` (reports/run_report) and the module rankings as text.
#include <gtest/gtest.h>

#include "reports/module_rankings.hpp"
#include "reports/run_report.hpp"

namespace sbx::reports {
namespace {

engine::CellSummary failed_cell() {
    engine::CellSummary cell;
    cell.workflow = "wf";
    cell.preset = "memory_low";
    cell.runs = 3;
    cell.passed = 2;
    cell.roi = 2.0 / 3.0;
    cell.metrics = {{"wall_s", 0.25}, {"max_rss_kb", 2048}};
    cell.failures = {{"build: exit 1", 1}};
    cell.failure_detail = "exit status 1";
    cell.failed_run = 12;
    cell.active_injectors = {"cpu_limit", "memory_limit"};
    cell.forecast = {
        {"value", 0.5}, {"lower", 0.25}, {"upper", 0.75}, {"insufficient_data", false}};
    return cell;
}

TEST(CellTable, ALinePerPresetThenTheFailuresWithTheirReplayLine) {
    const std::string table = cell_table("wf", 3, "ema", {failed_cell()}, "sandbox-runner");
    EXPECT_EQ(table.rfind("workflow wf: 3 run(s) per preset\n\nPRESET ", 0), 0U) << table;
    EXPECT_NE(table.find("NEXT ROI (ema forecast)\n"), std::string::npos) << table;
    EXPECT_NE(table.find("memory_low             3      2  0.667     250.0       2048  "
                         "cpu_limit,memory_limit 0.500 [0.250, 0.750]\n"),
              std::string::npos)
        << table;
    EXPECT_NE(table.find("\nfailures:\n  memory_low: build: exit 1 (x1)\n"
                         "  memory_low: first: exit status 1\n"
                         "  memory_low: replay: sandbox-runner replay 12\n"),
              std::string::npos)
        << table;
    EXPECT_EQ(table.find("errors of the setup"), std::string::npos) << table;
}

TEST(CellTable, SetupErrorsAreSaidApartFromFailures) {
    engine::CellSummary cell;
    cell.preset = "normal";
    cell.runs = 1;
    cell.errored = 1;
    cell.errors = {{"image missing", 1}};
    cell.forecast = nlohmann::json::object();  // no forecast yet
    const std::string table = cell_table("wf", 1, "ema", {cell}, "sandbox-runner");
    EXPECT_EQ(table.find("failures:"), std::string::npos) << table;
    EXPECT_NE(table.find("\nerrors of the setup (left out of PASSED and ROI):\n"
                         "  normal: image missing (x1)\n"),
              std::string::npos)
        << table;
    // A dash for the missing forecast.
    EXPECT_NE(table.find(" -\n"), std::string::npos) << table;
}

TEST(CellsToJson, TheReplayLineOnlyForACellWithAFailedRun) {
    auto passed = failed_cell();
    passed.failed_run = 0;
    const auto cells = cells_to_json({failed_cell(), passed}, "sandbox-runner");
    ASSERT_EQ(cells.size(), 2U);
    EXPECT_EQ(cells[0]["replay"], "sandbox-runner replay 12");
    EXPECT_TRUE(cells[1]["replay"].is_null());
    EXPECT_EQ(cells[0]["failures"]["build: exit 1"], 1);
    EXPECT_TRUE(cells[0]["not_applicable"].is_null());
}

TEST(RankingsText, AHeadingThenALinePerModule) {
    const nlohmann::json rankings = {
        {{"module", "m"}, {"raroi_total", 1.5}, {"roi_delta_total", -0.25}, {"converged", true}}};
    EXPECT_EQ(
        rankings_text("all cycles", rankings),
        "\nmodule rankings (all cycles)\n"
        "  m                                raroi    1.500   roi delta   -0.250   converged\n");
}

}  // namespace
}  // namespace sbx::reports
