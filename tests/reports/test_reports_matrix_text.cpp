// The heading of run-scenarios, the text of the simulation and trajectory reports, column
// for column, and run --fail-under's verdict on a run and a simulation.
#include <gtest/gtest.h>

#include "reports/fail_under.hpp"
#include "reports/scenario_summary.hpp"
#include "reports/simulation_recording.hpp"
#include "reports/trajectory_recording.hpp"

namespace sbx::reports {
namespace {

using nlohmann::json;

json simulation_report() {
    const json part_a = {{"name", "a"}, {"roi", 0.9}, {"metrics", {{"latency_ms", 12.5}}}};
    const json part_b = {{"name", "b"}, {"roi", 0.4}, {"metrics", json::object()}};
    return {{"presets",
             {{{"preset", "normal"},
               {"parts", {part_a, part_b}},
               {"combined", {{"name", "all_workflows"}, {"roi", 0.7}}},
               {"synergy", {{"synergy_roi", -0.05}}}}}}};
}

TEST(SimulationText, PartsThenTheCombinedWorkflowWithItsSynergy) {
    engine::Simulation simulation;
    simulation.subject = "workflows";
    simulation.parts.resize(2);
    simulation.presets.resize(1);
    const std::string head = "workflows simulation: 2 parts, 1 presets\n\npreset normal\n";
    EXPECT_EQ(simulation_text(simulation, simulation_report(), false),
              head + "  a                                roi 0.900\n" +
                  "  b                                roi 0.400\n" +
                  "  all_workflows                    roi 0.700   synergy_roi -0.050\n");
    EXPECT_EQ(simulation_text(simulation, simulation_report(), true),
              head + "  a                                roi 0.900\n" +
                  "    latency_ms                     12.5\n" +
                  "  b                                roi 0.400\n" +
                  "  all_workflows                    roi 0.700   synergy_roi -0.050\n" +
                  "    synergy_roi                    -0.05\n");
}

TEST(FailUnder, NamesTheFirstSimulationPartBelowIt) {
    EXPECT_EQ(fail_under_failure(simulation_report(), -1), "");
    EXPECT_EQ(fail_under_failure(simulation_report(), 0.4), "");
    EXPECT_EQ(fail_under_failure(simulation_report(), 0.5),
              "ROI 0.400 of b under preset 'normal' is below --fail-under 0.500");
}

TEST(FailUnder, NamesTheFirstCellBelowIt) {
    std::vector<engine::CellSummary> cells(2);
    cells[0].preset = "calm";
    cells[0].roi = 0.9;
    cells[1].preset = "storm";
    cells[1].roi = 0.25;
    EXPECT_EQ(fail_under_failure(cells, -1), "");
    EXPECT_EQ(fail_under_failure(cells, 0.25), "");
    EXPECT_EQ(fail_under_failure(cells, 0.95),
              "ROI 0.900 under preset 'calm' is below --fail-under 0.950");
}

TEST(TrajectoryText, OneRowPerStage) {
    const std::vector<scoring::StageMetrics> stages = {{"normal", 0.8, 0, 1, 1},
                                                       {"high_latency", 0.6, 0.2, 0.75, 0.9}};
    EXPECT_EQ(trajectory_text("wf", stages),
              "temporal trajectory of wf\n\n"
              "stage                roi  degradation  resilience  stability\n"
              "normal             0.800       +0.000       1.000      1.000\n"
              "high_latency       0.600       +0.200       0.750      0.900\n");
    EXPECT_EQ(trajectory_stages_json(stages)[1], json({{"stage", "high_latency"},
                                                       {"roi", 0.6},
                                                       {"degradation", 0.2},
                                                       {"resilience", 0.75},
                                                       {"stability", 0.9}}));
}

TEST(ScenarioHeading, SaysTheRobustnessRunsWhenSomeCellsRunMoreOften) {
    ScenarioRun run;
    run.workflow = "wf";
    run.baseline = "old";
    run.seed = 7;
    run.repetitions = 2;
    run.robustness_repetitions = 5;
    std::vector<engine::CellPlan> plans(2);
    plans[0].options.runs = 2;
    plans[1].options.runs = 2;
    EXPECT_EQ(scenario_heading(run, plans, 1, 1, false),
              "run-scenarios wf: 1 scenarios x 2 cells x 2 runs (seed 7, 1 worker)\n\n");
    plans[1].options.runs = 5;
    EXPECT_EQ(scenario_heading(run, plans, 1, 4, true),
              "run-scenarios wf: 1 scenarios x 2 cells x 2 runs (robustness and fault "
              "scenarios: 5) (seed 7, 4 workers) against baseline old\n\n");
}

}  // namespace
}  // namespace sbx::reports
