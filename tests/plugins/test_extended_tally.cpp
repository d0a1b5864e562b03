// The `extended` collector's formulas (docs/semantics.md, "Extended metrics") on cells of
// known runs, compiled in from plugins/metrics/extended/cell_tally.cpp: every figure
// computed by hand here from the runs given.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cell_tally.hpp"

namespace sbx::extended {
namespace {

using nlohmann::json;

// One run's collect request: one step of `wall_s` seconds and `cpu_s` CPU seconds that ended
// with `status` and printed `out`; `outcome` the host's class ("" leaves it out, as an older
// host did).
json run(int repetition, bool passed, double wall_s, const std::string &status = "OK",
         const std::string &outcome = "", const std::string &out = "", double cpu_s = 0) {
    json request{{"phase", "run"},
                 {"passed", passed},
                 {"failed_step", passed ? "" : "s"},
                 {"repetition", repetition},
                 {"step_names", {"s"}},
                 {"steps",
                  {{{"status", status},
                    {"stdout", out},
                    {"wall_s", wall_s},
                    {"cpu_user_s", cpu_s},
                    {"cpu_sys_s", 0.0}}}}};
    if (!outcome.empty()) {
        request["outcome"] = outcome;
    }
    return request;
}

CellFigures figures_of(const std::vector<json> &runs) {
    CellTally tally;
    for (const auto &request : runs) {
        tally.add_run(request);
    }
    return tally.figures();
}

TEST(ExtendedTally, ThroughputIsPassingRunsPerSecondOfRunTime) {
    // 3 passes in 0.5 + 0.25 + 1.0 + 0.25 = 2 s of run time.
    const CellFigures figures = figures_of(
        {run(0, true, 0.5), run(1, true, 0.25), run(2, false, 1.0, "RE"), run(3, true, 0.25)});
    ASSERT_TRUE(figures.throughput);
    EXPECT_DOUBLE_EQ(*figures.throughput, 1.5);
    // No pass: 0 per second; no run time at all: no figure.
    EXPECT_DOUBLE_EQ(*figures_of({run(0, false, 2.0, "RE")}).throughput, 0.0);
    EXPECT_FALSE(figures_of({run(0, true, 0.0)}).throughput);
}

TEST(ExtendedTally, RecoveryTimeIsTheMeanRunTimeOfTheFailingStreaksAPassEnded) {
    // In repetition order (given out of order): fail 1 s, fail 2 s, pass | fail 0.5 s, pass |
    // fail 4 s (never recovered, so not counted). Streaks recovered: 3 s and 0.5 s.
    const CellFigures figures =
        figures_of({run(4, true, 0.1), run(0, false, 1.0, "RE"), run(2, true, 0.1),
                    run(1, false, 2.0, "RE"), run(3, false, 0.5, "RE"), run(5, false, 4.0, "RE")});
    ASSERT_TRUE(figures.recovery_time);
    EXPECT_DOUBLE_EQ(*figures.recovery_time, 1.75);
    // Nothing failed: nothing to recover from, 0 s. Failures and no pass after any: none.
    EXPECT_DOUBLE_EQ(*figures_of({run(0, true, 1.0), run(1, true, 1.0)}).recovery_time, 0.0);
    EXPECT_FALSE(figures_of({run(0, true, 1.0), run(1, false, 1.0, "RE")}).recovery_time);
}

TEST(ExtendedTally, SafetyRatingIsTheShareOfRunsThatNeitherCrashedNorHung) {
    // The host's outcome class decides: a step expected to end by a signal is `accepted`.
    const CellFigures figures =
        figures_of({run(0, false, 0.1, "SG", "crashed"), run(1, false, 0.1, "TO", "hung"),
                    run(2, false, 0.1, "RE", "failed"), run(3, true, 0.1, "SG", "accepted"),
                    run(4, true, 0.1, "RE", "rejected")});
    EXPECT_DOUBLE_EQ(figures.safety_rating, 0.6);
    // Without the class (an older host), a step ended by a signal, OOM or timeout counts.
    EXPECT_DOUBLE_EQ(figures_of({run(0, false, 0.1, "OOM"), run(1, false, 0.1, "RE"),
                                 run(2, true, 0.1), run(3, false, 0.1, "TO")})
                         .safety_rating,
                     0.5);
    EXPECT_DOUBLE_EQ(figures_of({run(0, true, 0.1)}).safety_rating, 1.0);
}

TEST(ExtendedTally, RiskIndexIsTheWilsonUpperBoundOfTheFailureProbability) {
    // (p + z²/2n + z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n), z = 1.96.
    const auto by_hand = [](double failed, double n) {
        const double z = 1.96;
        const double p = failed / n;
        return (p + z * z / (2 * n) + z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n))) /
               (1 + z * z / n);
    };
    EXPECT_NEAR(wilson_upper(0, 4), 0.4899, 1e-4);  // no failure in 4 runs rules out little
    EXPECT_NEAR(wilson_upper(0, 100), 0.0370, 1e-4);
    EXPECT_DOUBLE_EQ(wilson_upper(3, 10), by_hand(3, 10));
    EXPECT_DOUBLE_EQ(wilson_upper(10, 10), 1.0);
    EXPECT_DOUBLE_EQ(wilson_upper(0, 0), 0.0);
    const CellFigures figures = figures_of(
        {run(0, true, 0.1), run(1, false, 0.1, "RE"), run(2, true, 0.1), run(3, true, 0.1)});
    EXPECT_DOUBLE_EQ(figures.risk_index, by_hand(1, 4));
}

TEST(ExtendedTally, EntropiesEfficiencyAndAntifragilityOfKnownRuns) {
    // Four outputs, two outcomes (RE twice, pass twice); 0.5 CPU seconds per pass.
    const CellFigures figures = figures_of({run(0, false, 0.1, "RE", "failed", "a", 0.25),
                                            run(1, false, 0.1, "RE", "failed", "b", 0.25),
                                            run(2, true, 0.1, "OK", "accepted", "c", 0.25),
                                            run(3, true, 0.1, "OK", "accepted", "d", 0.25)});
    EXPECT_DOUBLE_EQ(figures.shannon_entropy, 1.0);
    EXPECT_DOUBLE_EQ(figures.outcome_entropy, 0.5);
    ASSERT_TRUE(figures.cpu_s_per_pass);
    EXPECT_DOUBLE_EQ(*figures.cpu_s_per_pass, 0.5);
    EXPECT_DOUBLE_EQ(figures.efficiency, 1.0 / 1.5);
    ASSERT_TRUE(figures.antifragility);
    EXPECT_DOUBLE_EQ(*figures.antifragility, 1.0);
}

TEST(ExtendedTally, RecoveryTimeHelperTakesRunsInRepetitionOrder) {
    std::map<int64_t, TalliedRun> runs;
    runs[0] = {false, 2.0, false};
    runs[1] = {true, 1.0, false};
    runs[2] = {false, 1.0, false};
    runs[3] = {false, 1.0, false};
    runs[4] = {true, 1.0, false};
    ASSERT_TRUE(recovery_time(runs));
    EXPECT_DOUBLE_EQ(*recovery_time(runs), 2.0);  // (2 + (1 + 1)) / 2
}

}  // namespace
}  // namespace sbx::extended
