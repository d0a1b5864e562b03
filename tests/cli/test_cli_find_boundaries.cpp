// find-boundaries end to end: the real binary finds a boundary planted in a target (it fails
// from LOAD 37 on), in fewer probes than the grid scan, keeps it in preset_boundaries.json, and
// needs two probes to confirm it the next time; a real injector axis (CONCURRENCY_LEVEL:
// copies of the step that notice each other); run-autonomous adds presets on both
// sides of each kept boundary; boundaries an older version kept in preset_policy.json are
// read, and moved to their own file when the policy starts to learn.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"

namespace {

using nlohmann::json;

class FindBoundaries : public sbx::test::CliTest {
  protected:
    void SetUp() override {
        CliTest::SetUp();
        // `crowd`: each copy leaves a mark in the shared workspace, waits, counts the marks
        // (mktemp: each copy has a PID namespace of its own, so $$ would be the same).
        write_settings(R"(
workflows:
  - name: planted
    steps:
      - name: load
        run: [/bin/sh, -c, 'test "${LOAD:-0}" -lt 37']
  - name: crowd
    steps:
      - name: count
        run: [/bin/sh, -c, 'm=$(mktemp mark.XXXXXX); sleep 0.3; n=$(ls mark.* | wc -l); rm -f "$m"; test "$n" -lt 3']
)");
    }
};

TEST_F(FindBoundaries, FindsAPlantedBoundaryInFewerProbesThanTheGridAndKeepsIt) {
    const auto bisect = runner({"find-boundaries", "planted", "--axis", "LOAD:0:100:1", "--runs",
                                "1", "--seed", "3", "--workers", "2", "--json"});
    ASSERT_EQ(bisect.exit_code, 0) << bisect.err;
    const auto found = json::parse(bisect.out);
    const auto &axis = found["axes"][0];
    EXPECT_EQ(axis["kind"], "found");
    EXPECT_EQ(axis["holds"], "36");
    EXPECT_EQ(axis["breaks"], "37");
    EXPECT_EQ(found["summary"], "planted breaks at LOAD >= 37");
    const size_t bisect_probes = axis["probes"].size();
    EXPECT_LE(bisect_probes, 9u);

    // The peer at the same precision, in a data dir of its own (no kept policy).
    const auto grid =
        sbx::test::run_command({SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/grid",
                                "find-boundaries", "planted", "--axis", "LOAD:0:100:1", "--runs",
                                "1", "--seed", "3", "--strategy", "grid", "--json"});
    ASSERT_EQ(grid.exit_code, 0) << grid.err;
    const auto scanned = json::parse(grid.out)["axes"][0];
    EXPECT_EQ(scanned["breaks"], "37");
    EXPECT_EQ(scanned["probes"].size(), 38u);
    EXPECT_LT(bisect_probes * 4, scanned["probes"].size());

    // Every probe is a recorded cell; the policy keeps the bracket.
    EXPECT_EQ(query("SELECT count(*) FROM cells")[0][0], std::to_string(bisect_probes));
    std::ifstream policy_file(dir_ + "/data/preset_boundaries.json");
    const auto policy = json::parse(policy_file);
    EXPECT_EQ(policy["workflows"]["planted"]["LOAD"]["holds"], 36);
    EXPECT_EQ(policy["workflows"]["planted"]["LOAD"]["breaks"], 37);

    // The next search checks the kept bracket: two probes.
    const auto again = runner({"find-boundaries", "planted", "--axis", "LOAD:0:100:1", "--runs",
                               "1", "--seed", "3", "--preset-debug"});
    ASSERT_EQ(again.exit_code, 0) << again.err;
    EXPECT_NE(again.out.find("the kept bracket 36 .. 37 is checked first"), std::string::npos)
        << again.out;
    EXPECT_NE(again.out.find("probe LOAD=36: roi 1.000 -> holds"), std::string::npos) << again.out;
    EXPECT_NE(again.out.find("probe LOAD=37: roi 0.000 -> breaks"), std::string::npos) << again.out;
    EXPECT_NE(again.out.find("(2 probes, 2 runs)"), std::string::npos) << again.out;

    // run-autonomous adds a preset on each side of the kept boundary.
    const auto loop = runner({"run-autonomous", "-w", "planted", "--max-iterations", "1",
                              "--preset-count", "1", "--seed", "5", "--json"});
    ASSERT_EQ(loop.exit_code, 0) << loop.err;
    std::ifstream state_file(dir_ + "/data/autonomous_run.json");
    const auto presets = json::parse(state_file)["iterations"][0]["presets"];
    EXPECT_NE(std::find(presets.begin(), presets.end(), "LOAD=36"), presets.end()) << presets;
    EXPECT_NE(std::find(presets.begin(), presets.end(), "LOAD=37"), presets.end()) << presets;
}

TEST_F(FindBoundaries, FindsWhereConcurrentCopiesBreakAStep) {
    const auto result = runner({"find-boundaries", "crowd", "--axis", "CONCURRENCY_LEVEL:1:16:1",
                                "--runs", "1", "--seed", "1", "--workers", "1", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto axis = json::parse(result.out)["axes"][0];
    EXPECT_EQ(axis["breaks"], "3") << axis;
    EXPECT_EQ(axis["holds"], "2") << axis;
}

TEST_F(FindBoundaries, BoundariesKeptInAnOlderPresetPolicyAreReadAndMovedWhenItLearns) {
    std::filesystem::create_directories(dir_ + "/data");
    {
        std::ofstream legacy(dir_ + "/data/preset_policy.json");
        legacy << R"({"format": "sandbox-runner/preset_policy/1", "workflows": {"planted": {"LOAD":
            {"kind": "found", "holds": 36, "breaks": 37, "unit": "", "integer": true,
             "probes": 7, "runs": 7}}}})";
    }
    const auto search = runner({"find-boundaries", "planted", "--axis", "LOAD:0:100:1", "--runs",
                                "1", "--seed", "3", "--preset-debug"});
    ASSERT_EQ(search.exit_code, 0) << search.err;
    EXPECT_NE(search.out.find("the kept bracket 36 .. 37 is checked first"), std::string::npos)
        << search.out;
    std::filesystem::remove(dir_ + "/data/preset_boundaries.json");

    // adapt-presets learns in preset_policy.json: the brackets move out first.
    const auto adapt = runner({"adapt-presets", "--seed", "1"});
    ASSERT_EQ(adapt.exit_code, 0) << adapt.err;
    std::ifstream moved_file(dir_ + "/data/preset_boundaries.json");
    ASSERT_TRUE(moved_file.good()) << "the boundaries were not moved";
    const auto moved = json::parse(moved_file);
    EXPECT_EQ(moved["format"], "sandbox-runner/preset_boundaries/1");
    EXPECT_EQ(moved["workflows"]["planted"]["LOAD"]["breaks"], 37) << moved;
    std::ifstream policy_file(dir_ + "/data/preset_policy.json");
    EXPECT_EQ(json::parse(policy_file)["format"], "sandbox-runner/preset_policy/2");
}

TEST_F(FindBoundaries, BadAxesAndOptionsAreRefusedWithExit2) {
    for (const auto &[args, message] :
         std::vector<std::pair<std::vector<std::string>, std::string>>{
             {{"find-boundaries", "planted", "--axis", "LOAD"}, "needs its range"},
             {{"find-boundaries", "planted", "--axis", "LOAD:0:x"}, "HARSH 'x' is not a number"},
             {{"find-boundaries", "planted", "--strategy", "random"}, "write bisect or grid"},
             {{"find-boundaries", "planted", "--break-below", "0"}, "--break-below must be"},
             {{"find-boundaries", "nope"}, "nope"}}) {
        const auto result = runner(args);
        EXPECT_EQ(result.exit_code, 2) << args.back() << ": " << result.out;
        EXPECT_NE(result.err.find(message), std::string::npos) << result.err;
    }
}

}  // namespace
