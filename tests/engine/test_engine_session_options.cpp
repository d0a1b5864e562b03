// What a matrix command's session records of its options, and what --recover reads back,
// also from a session recorded before a key existed; a seed drawn only when none is given.
#include <gtest/gtest.h>

#include <filesystem>

#include "engine/matrix_session.hpp"
#include "engine/session_options.hpp"
#include "util/errors.hpp"
#include "util/temp_dir.hpp"

namespace sbx::engine {
namespace {

using nlohmann::json;

TEST(SessionOptions, RunRecordsPresetFilesAbsoluteAndRecoversThem) {
    RunSessionOptions options;
    options.runs = 4;
    options.preset_count = 2;
    options.preset_files = {"presets/../a.json"};
    const json recorded = recorded_options(options);
    const std::string absolute = (std::filesystem::current_path() / "a.json").string();
    EXPECT_EQ(
        recorded,
        json({{"runs", 4}, {"preset_count", 2}, {"preset_files", {absolute}}, {"on", "local"}}));
    const auto back = recovered_run_options(recorded);
    EXPECT_EQ(back.runs, 4);
    EXPECT_EQ(back.preset_count, 2);
    EXPECT_EQ(back.preset_files, std::vector<std::string>{absolute});
    EXPECT_EQ(back.on, "local");
}

TEST(SessionOptions, ScenarioSessionsRoundTrip) {
    const ScenarioSessionOptions options{3, 5, true, "slurm", true};
    const auto back = recovered_scenario_options(recorded_options(options));
    EXPECT_EQ(back.repetitions, 3);
    EXPECT_EQ(back.robustness_repetitions, 5);
    EXPECT_TRUE(back.all_scenarios);
    EXPECT_EQ(back.on, "slurm");
    EXPECT_TRUE(back.fault_scenarios_repeat);
}

TEST(SessionOptions, AnOlderSessionRecoversAsItRan) {
    // Before robustness repetitions, fault-scenario repetitions and --on were recorded.
    const auto scenarios = recovered_scenario_options(json{{"repetitions", 2}});
    EXPECT_EQ(scenarios.repetitions, 2);
    EXPECT_EQ(scenarios.robustness_repetitions, 1);
    EXPECT_FALSE(scenarios.all_scenarios);
    EXPECT_EQ(scenarios.on, "local");
    EXPECT_FALSE(scenarios.fault_scenarios_repeat);
    const auto run = recovered_run_options(json::object());
    EXPECT_EQ(run.runs, 1);
    EXPECT_EQ(run.preset_count, 3);
    EXPECT_TRUE(run.preset_files.empty());
    EXPECT_EQ(run.on, "local");
    const auto trajectory = recovered_trajectory_options(json{{"repetitions", 3}});
    EXPECT_EQ(trajectory.repetitions, 3);
    EXPECT_EQ(trajectory.on, "local");
    EXPECT_EQ(recorded_options(TrajectorySessionOptions{3, ""}),
              json({{"repetitions", 3}, {"on", "local"}}));
}

TEST(ResumeOrSeed, DrawsASeedOnlyWhenNoneIsGivenAndRecoversOnlyASession) {
    const TempDir dir(std::filesystem::temp_directory_path(), "sbx-resume-");
    const auto database = dir.path() / "metrics.db";
    store::Store store(database);
    int64_t seed = 42;
    EXPECT_FALSE(resume_or_seed(store, "run wf", database.string(), false, seed));
    EXPECT_EQ(seed, 42);
    seed = -1;
    EXPECT_FALSE(resume_or_seed(store, "run wf", database.string(), false, seed));
    EXPECT_GE(seed, 0);
    EXPECT_THROW(resume_or_seed(store, "run wf", database.string(), true, seed), InputError);
}

}  // namespace
}  // namespace sbx::engine
