// What find-boundaries, adapt-presets and the autonomous loop report as text and JSON:
// pinned line by line, since the commands print them as they are.
#include <gtest/gtest.h>

#include "autonomous/adapted_presets_report.hpp"
#include "autonomous/boundary_report.hpp"
#include "autonomous/loop_report_text.hpp"

namespace sbx::autonomous {
namespace {

using nlohmann::json;

TEST(BoundaryReport, HeadingCountsAxesAndRuns) {
    BoundarySearch search;
    search.axes.resize(1);
    search.runs = 1;
    search.seed = 7;
    search.strategy = "grid";
    EXPECT_EQ(boundary_search_heading("checkout", search),
              "find-boundaries checkout: 1 axis, 1 run per probe, grid (seed 7)");
    search.axes.resize(2);
    search.runs = 3;
    EXPECT_EQ(boundary_search_heading("checkout", search),
              "find-boundaries checkout: 2 axes, 3 runs per probe, grid (seed 7)");
}

TEST(BoundaryReport, FindingsSayWhereTheyAreKept) {
    BoundarySearch search;
    search.seed = 5;
    search.runs = 2;
    search.strategy = "bisect";
    BoundaryFindings findings;
    findings.summary = "breaks at CPU_LIMIT <= 0.5";
    const BoundaryRecord record{"checkout", 12, "/data/preset_boundaries.json"};
    EXPECT_EQ(boundary_findings_text(record, findings),
              "checkout breaks at CPU_LIMIT <= 0.5\nboundaries kept in "
              "/data/preset_boundaries.json; recorded as session 12\n");
    const auto out = boundary_findings_json(record, search, findings);
    EXPECT_EQ(out["summary"], "checkout breaks at CPU_LIMIT <= 0.5");
    EXPECT_EQ(out["session"], 12);
    EXPECT_EQ(out["seed"], 5);
    EXPECT_EQ(out["runs_per_probe"], 2);
    EXPECT_EQ(out["boundaries"], "/data/preset_boundaries.json");
}

TEST(AdaptedPresetsReport, TextListsEachDecisionAndWhereThePresetsWent) {
    AdaptedPresets adapted;
    adapted.strategy = "rules";
    adapted.chosen = 1;
    adapted.history = "roi_history.json";
    adapted.out = "adapted.json";
    adapted.changed = 1;
    presets::PresetDecision decision;
    decision.scenario = "spike";
    decision.strategy = "rules";
    decision.signals.roi = presets::Trend::rising;
    decision.signals.roi_samples = 4;
    presets::KeyDecision key;
    key.key = "CPU_LIMIT";
    key.step = presets::Step::harsher;
    key.why = "rules: ROI rising";
    key.result = {true, "2", "1", ""};
    decision.keys = {key};
    presets::PresetDecision as_written;
    as_written.scenario = "normal";
    as_written.note = "the baseline";
    adapted.decisions = {decision, as_written};
    EXPECT_EQ(adapted_presets_text(adapted, 9),
              "adapt-presets: 1 preset, rules (seed 9), history roi_history.json\n"
              "  spike                        rules: ROI rising (4 values), synergy unknown, "
              "security unknown\n"
              "    CPU_LIMIT            2 -> 1             harsher  rules: ROI rising\n"
              "  normal                       as written (the baseline)\n"
              "1 setting changed; adapted presets in adapted.json\n");
    const auto out = adapted_presets_json(adapted, 9);
    EXPECT_TRUE(out["policy"].is_null());
    EXPECT_EQ(out["decisions"].size(), 2U);
    adapted.strategy = "q_learning";
    adapted.policy = "preset_policy.json";
    EXPECT_EQ(adapted_presets_json(adapted, 9)["policy"], "preset_policy.json");
    const auto text = adapted_presets_text(adapted, 9);
    EXPECT_EQ(text.substr(text.rfind("; policy")), "; policy kept in preset_policy.json\n");
}

TEST(LoopReportText, IterationLinesShowEachModuleAndWhatConverged) {
    IterationRecord record;
    record.iteration = 2;
    record.presets = {"calm"};
    ModuleIteration module;
    module.roi = 1.25;
    module.entropy = 0.5;
    module.forecast = json{{"value", 1.5}};
    record.modules["checkout"] = module;
    record.modules["login"] = ModuleIteration{};
    record.synergy_roi = -0.25;
    LoopDecisions decisions;
    decisions.converged_modules = {"checkout", "login"};
    EXPECT_EQ(iteration_text(record, 10, decisions, 3.25),
              "iteration 2/10: 1 preset, 2 modules, 3.2 s\n"
              "  checkout                     roi 1.250  entropy 0.500  next 1.500\n"
              "  login                        roi 0.000  entropy 0.000  next -\n"
              "  synergy_roi                  -0.250\n"
              "  converged: checkout, login\n");
    decisions.converged_modules.clear();
    EXPECT_NE(iteration_text(record, 10, decisions, 1).find("  converged: none yet\n"),
              std::string::npos);
}

TEST(LoopReportText, FinalReportSaysWhyItStoppedAndWhatNeverRan) {
    const json report{
        {"command", "run-autonomous"},
        {"iterations", 1},
        {"stopped", "converged"},
        {"pending", json::array({"login"})},
        {"rankings", json::array()},
        {"modules",
         {{"checkout",
           {{"roi", 1.0}, {"mean_roi", 0.5}, {"entropy", 0.25}, {"passed", 3}, {"runs", 4}}},
          {"login", {{"roi", nullptr}}}}},
        {"synergy_roi", nullptr},
        {"foresight", json::array()}};
    EXPECT_EQ(autonomous_report_text(report),
              "\nrun-autonomous stopped after 1 iteration: converged\n"
              "  not converged: login\n"
              "\nmodule rankings (by total RAROI over the iterations)\n"
              "\nfinal metrics\n"
              "  checkout                     roi 1.000   mean roi 0.500   entropy 0.250   passed "
              "3 of 4 runs\n"
              "  login                        never ran\n"
              "\nforesight (foresight_history.json)\n"
              "  no trajectory recorded yet; simulate-temporal-trajectory records one\n");
}

}  // namespace
}  // namespace sbx::autonomous
