// Rankings over hand-written roi_history.json files: exact cumulative sums, best first
// with ties by name, the last security_score, and synergy metrics by either name.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "command.hpp"
#include "ranking/ranking.hpp"
#include "util/errors.hpp"

namespace {

namespace fs = std::filesystem;
using namespace sbx::ranking;

constexpr const char *kFirst = R"({"format": "sandbox-runner/roi_history/1", "scenarios": {
  "scenario_a": {"roi": [1.0, 1.25], "metrics": {"security_score": [0.5, 0.82],
                 "synergy_roi": [0.125, -0.5], "synergy_security_score": [0.25]}},
  "scenario_b": {"roi": [2.1], "metrics": {"security_score": [0.9], "synergy_roi": [0.25]}},
  "scenario_c": {"roi": [0.5, 0.5]}}})";
constexpr const char *kSecond = R"({"format": "sandbox-runner/roi_history/1", "scenarios": {
  "scenario_a": {"roi": [1.0], "metrics": {"security_score": [0.7], "synergy_roi": [0.5]}},
  "scenario_c": {"roi": [0.25], "metrics": {"security_score": [0.3]}},
  "tie_x": {"roi": [1.25]}}})";

class HistoryTotals : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = sbx::test::make_temp_dir("sbx-ranking-");
        first_ = write("first.json", kFirst);
        second_ = write("run2/roi_history.json", kSecond);
    }
    void TearDown() override { fs::remove_all(dir_); }
    std::string write(const std::string &name, const std::string &text) const {
        const fs::path path = fs::path(dir_) / name;
        fs::create_directories(path.parent_path());
        std::ofstream(path) << text;
        return path.string();
    }
    std::string dir_, first_, second_;
};

TEST_F(HistoryTotals, ScenariosBySummedRoiWithTiesByNameAndTheLastSecurityScore) {
    const auto rows =
        rank_scenarios(resolve_sources({first_, dir_ + "/run2"}), WorkflowGrouping::each_workflow);
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(rows[0].scenario, "scenario_a");
    EXPECT_DOUBLE_EQ(rows[0].roi, 3.25);
    EXPECT_EQ(rows[0].security_score, 0.7) << "the later RUN recorded it last";
    EXPECT_EQ(rows[1].scenario, "scenario_b");
    EXPECT_DOUBLE_EQ(rows[1].roi, 2.1);
    EXPECT_EQ(rows[1].security_score, 0.9);
    // 1.25 each: the tie goes by name.
    EXPECT_EQ(rows[2].scenario, "scenario_c");
    EXPECT_DOUBLE_EQ(rows[2].roi, 1.25);
    EXPECT_EQ(rows[2].security_score, 0.3);
    EXPECT_EQ(rows[3].scenario, "tie_x");
    EXPECT_DOUBLE_EQ(rows[3].roi, 1.25);
    EXPECT_FALSE(rows[3].security_score.has_value());
    for (const auto &row : rows) {
        EXPECT_EQ(row.workflow, "") << "a roi_history.json records no workflow";
    }

    // The same RUNs the other way round: same sums, scenario_a's last score from `first`.
    const auto reversed =
        rank_scenarios(resolve_sources({second_, first_}), WorkflowGrouping::each_workflow);
    EXPECT_DOUBLE_EQ(reversed[0].roi, 3.25);
    EXPECT_EQ(reversed[0].security_score, 0.82);
}

TEST_F(HistoryTotals, SynergySumsTheChosenMetricUnderEitherName) {
    const auto sources = resolve_sources({first_, second_});
    const auto roi = rank_synergy(sources, "roi");
    EXPECT_EQ(roi.metric, "synergy_roi");
    ASSERT_EQ(roi.rows.size(), 2u);
    EXPECT_EQ(roi.rows[0].scenario, "scenario_b");
    EXPECT_DOUBLE_EQ(roi.rows[0].value, 0.25);
    EXPECT_EQ(roi.rows[1].scenario, "scenario_a");
    EXPECT_DOUBLE_EQ(roi.rows[1].value, 0.125);  // 0.125 − 0.5 + 0.5

    for (const char *name : {"security_score", "synergy_security_score"}) {
        const auto security = rank_synergy(sources, name);
        EXPECT_EQ(security.metric, "synergy_security_score");
        ASSERT_EQ(security.rows.size(), 1u);
        EXPECT_DOUBLE_EQ(security.rows[0].value, 0.25);
    }
}

TEST_F(HistoryTotals, ScenarioSynergyReadsTheSameSeriesInAHistory) {
    // roi_history.json does not record the subject of a synergy value.
    const auto sources = resolve_sources({first_, second_});
    const auto all = rank_synergy(sources, "roi");
    const auto workflows = rank_scenario_synergy(sources, "roi");
    ASSERT_EQ(all.rows.size(), workflows.rows.size());
    for (size_t i = 0; i < all.rows.size(); ++i) {
        EXPECT_EQ(all.rows[i].scenario, workflows.rows[i].scenario);
        EXPECT_DOUBLE_EQ(all.rows[i].value, workflows.rows[i].value);
    }
}

TEST_F(HistoryTotals, AMetricNoRunRecordsNamesTheRecordedOnes) {
    try {
        rank_synergy(resolve_sources({first_}), "revenue");
        FAIL() << "no InputError";
    } catch (const sbx::InputError &e) {
        EXPECT_STREQ(e.what(),
                     "no RUN records synergy_revenue; recorded synergy metrics: synergy_roi, "
                     "synergy_security_score (pass --metric with one of them, with or without "
                     "synergy_)");
    }
    // No synergy at all is an empty ranking, not an error.
    const auto plain = write("plain.json", R"({"format": "sandbox-runner/roi_history/1",
        "scenarios": {"normal": {"roi": [1]}}})");
    EXPECT_TRUE(rank_synergy(resolve_sources({plain}), "revenue").rows.empty());
}

TEST_F(HistoryTotals, MetricNamesAreChecked) {
    EXPECT_EQ(synergy_metric_name("roi"), "synergy_roi");
    EXPECT_EQ(synergy_metric_name("synergy_roi"), "synergy_roi");
    EXPECT_EQ(synergy_metric_name("p95_latency.ms"), "synergy_p95_latency.ms");
    for (const char *bad : {"", "synergy_", "two words", "roi;drop"}) {
        SCOPED_TRACE(bad);
        EXPECT_THROW(synergy_metric_name(bad), sbx::InputError);
    }
}

TEST_F(HistoryTotals, AMalformedHistoryIsAnInputErrorWithLineAndColumn) {
    const auto broken = write("broken.json",
                              "{\"format\": \"sandbox-runner/roi_history/1\",\n"
                              "  \"scenarios\": {\"a\": {\"roi\": [1,]}}}\n");
    try {
        rank_scenarios(resolve_sources({first_, broken}), WorkflowGrouping::each_workflow);
        FAIL() << "no InputError";
    } catch (const sbx::InputError &e) {
        EXPECT_EQ(std::string(e.what()).rfind(broken + ":2:", 0), 0u) << e.what();
    }
    const auto wrong_type = write("wrong.json", R"({"format": "sandbox-runner/roi_history/1",
        "scenarios": {"a": {"roi": ["1"]}}})");
    EXPECT_THROW(rank_scenarios(resolve_sources({wrong_type}), WorkflowGrouping::each_workflow),
                 sbx::InputError);
}

}  // namespace
