// run-autonomous and run-complete end to end: the real binary iterating a matrix of two
// workflows until it stops with a reason; a SIGKILL and a SIGINT in the middle, each
// followed by --recover, end in exactly the report of an uninterrupted loop with the same
// seed, with no run done twice; the decisions, forecasts and state it leaves behind.
#include <signal.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_fixture.hpp"

namespace {

using nlohmann::json;

// Two workflows (so there is synergy), two presets (one calm, one where `steady` fails and
// `flaky` fails the other way), two runs per cell; each run sleeps so that a signal lands
// in the middle of an iteration.
constexpr const char *kSettings = R"(
presets:
  - {SCENARIO_NAME: calm, OUTCOME: "0"}
  - {SCENARIO_NAME: stormy, OUTCOME: "1"}
workflows:
  - name: steady
    steps:
      - name: work
        run: [/bin/sh, -c, 'sleep 0.1; exit $OUTCOME']
  - name: flaky
    steps:
      - name: work
        run: [/bin/sh, -c, 'sleep 0.1; test "$OUTCOME" = 0 && exit 4; exit 0']
)";

class AutonomousLoop : public sbx::test::CliTest {
  protected:
    void SetUp() override {
        CliTest::SetUp();
        write_settings(kSettings);
    }

    std::vector<std::string> host(const std::vector<std::string> &args,
                                  const std::string &data_dir) const {
        std::vector<std::string> argv = {SBX_BINARY, "--config", settings_, "--data-dir", data_dir};
        argv.insert(argv.end(), args.begin(), args.end());
        return argv;
    }

    // The loop uninterrupted in a data dir of its own: its --json report.
    json reference(const std::vector<std::string> &loop) {
        auto args = loop;
        args.emplace_back("--json");
        const auto result = sbx::test::run_command(host(args, dir_ + "/reference"), {}, dir_);
        EXPECT_EQ(result.exit_code, 0) << result.err;
        return json::parse(result.out);
    }

    // Starts the loop, lets it commit `runs` runs, sends `signal_number` and reaps it.
    int interrupt_after(const std::vector<std::string> &loop, int64_t runs, int signal_number) {
        const int pid = sbx::test::spawn_background(host(loop, dir_ + "/data"), {{"TMPDIR", dir_}},
                                                    dir_, dir_ + "/host.log");
        const int64_t seen = wait_for_runs(runs, std::chrono::seconds(60));
        EXPECT_GE(seen, runs) << "the loop did not commit " << runs << " runs in 60 s";
        EXPECT_EQ(kill(pid, signal_number), 0);
        int status = 0;
        EXPECT_EQ(waitpid(pid, &status, 0), pid);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }

    json state() const {
        std::ifstream in(dir_ + "/data/autonomous_run.json");
        return json::parse(in);
    }

    // The state of a finished two-iteration loop put back as it was with the second iteration
    // in flight (its session finished, the iteration not yet recorded), recorded by `command`.
    void reopen_second_iteration(const std::string &command) {
        auto loop = state();
        ASSERT_EQ(loop["iterations"].size(), 2u);
        loop["command"] = command;
        loop["in_progress"] = {{"iteration", 2}, {"session", loop["iterations"][1]["session"]}};
        loop["iterations"].erase(1);
        loop["stopped"] = "";
        std::ofstream(dir_ + "/data/autonomous_run.json") << loop.dump();
    }

    // Recovers the interrupted loop and checks it ends where the reference ends.
    void recover_and_compare(const json &expected) {
        const auto recovered = runner({"run-autonomous", "--recover", "--json"});
        ASSERT_EQ(recovered.exit_code, 0) << recovered.err;
        EXPECT_EQ(json::parse(recovered.out), expected);
        // Each iteration is one session; no run of any was done twice.
        const int iterations = expected["iterations"];
        EXPECT_EQ(query("SELECT count(*) FROM sessions")[0][0], std::to_string(iterations));
        EXPECT_EQ(query("SELECT count(*) FROM (SELECT session_id, workflow, preset_id, flag, "
                        "repetition FROM runs GROUP BY 1, 2, 3, 4, 5 HAVING count(*) > 1)")[0][0],
                  "0");
        EXPECT_EQ(query("SELECT count(*) FROM sessions WHERE status != 'finished'")[0][0], "0");
    }

    const std::vector<std::string> loop_ = {
        "run-autonomous", "--max-iterations", "5", "--runs", "2", "--seed", "7", "--workers", "2"};
};

TEST_F(AutonomousLoop, IteratesUntilAReasonAndReportsRankingsDecisionsAndForecasts) {
    const auto result =
        runner({"run-autonomous", "--max-iterations", "5", "--runs", "2", "--seed", "7",
                "--workers", "2", "--forecast-log", dir_ + "/forecasts.jsonl"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("iteration 1/5: 2 presets, 2 modules"), std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("run-autonomous stopped after "), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("module rankings"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("final metrics"), std::string::npos) << result.out;

    const auto loop = state();
    EXPECT_FALSE(loop["stopped"].get<std::string>().empty());
    EXPECT_TRUE(loop["in_progress"].is_null());
    const auto &iterations = loop["iterations"];
    ASSERT_GE(iterations.size(), 1u);
    for (const auto &iteration : iterations) {
        // steady passes calm and fails stormy, flaky the other way round: 2 of 4 runs each.
        EXPECT_DOUBLE_EQ(iteration["modules"]["steady"]["roi"].get<double>(), 0.5);
        EXPECT_DOUBLE_EQ(iteration["modules"]["flaky"]["roi"].get<double>(), 0.5);
        // Two passes and two failures of one reason: one bit.
        EXPECT_DOUBLE_EQ(iteration["modules"]["steady"]["entropy"].get<double>(), 1.0);
        // Together they always fail: combined ROI 0 against a mean of 0.5.
        EXPECT_DOUBLE_EQ(iteration["synergy_roi"].get<double>(), -0.5);
    }
    // Identical iterations: the outcomes stop changing, so the entropy plateau ends the loop
    // after three unchanged steps, before the ROI tracker's window of five fills.
    EXPECT_EQ(iterations.size(), 4u);
    EXPECT_EQ(loop["stopped"].get<std::string>().rfind("entropy plateau", 0), 0u) << loop;

    // Every decision of every iteration is logged.
    std::ifstream decisions_file(dir_ + "/data/threshold_log.jsonl");
    std::map<std::string, int> kinds;
    std::string line;
    while (std::getline(decisions_file, line)) {
        const auto decision = json::parse(line);
        ++kinds[decision["kind"].get<std::string>()];
        EXPECT_TRUE(decision.contains("threshold")) << line;
        EXPECT_TRUE(decision.contains("source")) << line;
    }
    EXPECT_EQ(kinds, (std::map<std::string, int>{{"entropy", 8}, {"roi", 8}, {"synergy", 4}}));

    // --forecast-log: per iteration and module, what was forecast and what came.
    std::ifstream forecasts(dir_ + "/forecasts.jsonl");
    int lines = 0;
    while (std::getline(forecasts, line)) {
        const auto entry = json::parse(line);
        ++lines;
        if (entry["iteration"] == 1) {
            EXPECT_TRUE(entry["predicted"].is_null()) << line;
        } else {
            EXPECT_DOUBLE_EQ(entry["predicted"].get<double>(), 0.5) << line;
        }
        EXPECT_DOUBLE_EQ(entry["actual"].get<double>(), 0.5) << line;
        EXPECT_EQ(entry["next"]["method"], "auto") << line;
    }
    EXPECT_EQ(lines, 8);
    // The loop's own series are forecast and scored like every other.
    const auto reliability = runner({"show-reliability", "--json"});
    EXPECT_NE(reliability.out.find("roi:steady:loop1"), std::string::npos) << reliability.out;

    // A finished loop has nothing to recover.
    const auto again = runner({"run-autonomous", "--recover"});
    EXPECT_EQ(again.exit_code, 2);
    EXPECT_NE(again.err.find("holds no unfinished run-autonomous"), std::string::npos) << again.err;
}

// The gates as the original system tunes them: --consecutive shortens the plateau, and the
// synergy threshold follows the loop's own forecast errors once it has two.
TEST_F(AutonomousLoop, ThePlateauAndTheSynergyThresholdAreTunable) {
    const auto result =
        runner({"run-autonomous", "--max-iterations", "5", "--runs", "2", "--seed", "7",
                "--workers", "2", "--consecutive", "2", "--synergy-threshold-window", "4"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto loop = state();
    EXPECT_EQ(loop["iterations"].size(), 3u) << "two unchanged steps, not three";
    EXPECT_EQ(loop["stopped"].get<std::string>().rfind("entropy plateau", 0), 0u) << loop;
    std::ifstream decisions_file(dir_ + "/data/threshold_log.jsonl");
    std::vector<json> synergy;
    for (std::string line; std::getline(decisions_file, line);) {
        const auto decision = json::parse(line);
        if (decision["kind"] == "synergy") {
            synergy.push_back(decision);
        }
    }
    ASSERT_EQ(synergy.size(), 3u);
    EXPECT_EQ(synergy[0]["threshold_basis"], "spread") << "no forecast error yet";
    // Iterations 2 and 3 each met the forecast the one before made: -0.5 against -0.5.
    EXPECT_EQ(synergy[2]["threshold_basis"], "forecast error") << synergy[2];
    EXPECT_DOUBLE_EQ(synergy[2]["threshold"].get<double>(), 0.0) << synergy[2];
    EXPECT_EQ(loop["options"]["thresholds"]["synergy_threshold_window"], 4) << loop["options"];
}

// A fixed threshold from the environment is logged as coming from there, and an option
// still wins over it.
TEST_F(AutonomousLoop, ThresholdsFromTheEnvironmentAreLoggedAsSuch) {
    const auto result =
        sbx::test::run_command({SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/data",
                                "run-autonomous", "--max-iterations", "2", "--runs", "2", "--seed",
                                "7", "--workers", "2", "--roi-threshold", "0.2"},
                               {{"SYNERGY_THRESHOLD", "0.03"},
                                {"ENTROPY_PLATEAU_THRESHOLD", "0.02"},
                                {"ROI_THRESHOLD", "0.4"}},
                               dir_);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    std::ifstream decisions_file(dir_ + "/data/threshold_log.jsonl");
    std::map<std::string, json> last;  // by kind
    for (std::string line; std::getline(decisions_file, line);) {
        const auto decision = json::parse(line);
        last[decision["kind"].get<std::string>()] = decision;
    }
    ASSERT_EQ(last.size(), 3u);
    EXPECT_EQ(last["synergy"]["source"], "environment") << last["synergy"];
    EXPECT_DOUBLE_EQ(last["synergy"]["threshold"].get<double>(), 0.03) << last["synergy"];
    EXPECT_EQ(last["entropy"]["source"], "environment") << last["entropy"];
    EXPECT_EQ(last["roi"]["source"], "option") << last["roi"];
}

TEST_F(AutonomousLoop, ASigkilledLoopRecoversToTheReportOfAnUninterruptedOne) {
    const auto expected = reference(loop_);
    // 12 runs an iteration: kill in the middle of the second.
    EXPECT_EQ(interrupt_after(loop_, 18, SIGKILL), 128 + SIGKILL);
    const auto killed = state();
    EXPECT_EQ(killed["iterations"].size(), 1u) << killed;
    EXPECT_EQ(killed["in_progress"]["iteration"], 2) << killed;
    recover_and_compare(expected);
}

TEST_F(AutonomousLoop, SigintStopsWithExit3AndRecoverFinishes) {
    const auto expected = reference(loop_);
    EXPECT_EQ(interrupt_after(loop_, 6, SIGINT), 3);
    std::ifstream log(dir_ + "/host.log");
    std::stringstream text;
    text << log.rdbuf();
    EXPECT_NE(text.str().find("every completed run is recorded"), std::string::npos) << text.str();
    EXPECT_EQ(query("SELECT status FROM sessions")[0][0], "interrupted");
    // A new loop would overwrite the unfinished one: refused.
    const auto fresh = runner(loop_);
    EXPECT_EQ(fresh.exit_code, 2);
    EXPECT_NE(fresh.err.find("holds an unfinished run-autonomous"), std::string::npos) << fresh.err;
    recover_and_compare(expected);
}

// The host died after an iteration's session was marked finished and before the loop
// recorded the iteration: --recover finds every cell of that session and runs nothing again.
TEST_F(AutonomousLoop, AnIterationWhoseSessionFinishedIsRecordedOnRecover) {
    const auto finished = runner({"run-autonomous", "--max-iterations", "2", "--runs", "1",
                                  "--seed", "4", "--workers", "2", "--json"});
    ASSERT_EQ(finished.exit_code, 0) << finished.err;
    const auto runs_before = query("SELECT count(*) FROM runs")[0][0];
    const auto forecasts_before = query("SELECT count(*) FROM predictions")[0][0];
    reopen_second_iteration("run-autonomous");

    const auto recovered = runner({"run-autonomous", "--recover", "--json"});
    ASSERT_EQ(recovered.exit_code, 0) << recovered.err;
    EXPECT_EQ(json::parse(recovered.out), json::parse(finished.out));
    EXPECT_EQ(query("SELECT count(*) FROM runs")[0][0], runs_before) << "nothing ran again";
    EXPECT_EQ(query("SELECT count(*) FROM predictions")[0][0], forecasts_before)
        << "the iteration's forecasts were replaced, not added";
    EXPECT_EQ(query("SELECT count(*) FROM sessions WHERE status != 'finished'")[0][0], "0");
}

// A loop interrupted before 0.1.0 recorded its old name, full-autonomous-run, in its state
// and its sessions: --recover goes on with it, under the old name (now an alias) or the new.
TEST_F(AutonomousLoop, ALoopRecordedUnderItsOldNameRecoversUnderEitherName) {
    const auto finished = runner({"run-autonomous", "--max-iterations", "2", "--runs", "1",
                                  "--seed", "4", "--workers", "2", "--json"});
    ASSERT_EQ(finished.exit_code, 0) << finished.err;
    for (const char *name : {"full-autonomous-run", "run-autonomous"}) {
        reopen_second_iteration("full-autonomous-run");
        const auto renamed = sbx::test::run_command(
            {"/usr/bin/sqlite3", db_path(), "UPDATE sessions SET command = 'full-autonomous-run'"});
        ASSERT_EQ(renamed.exit_code, 0) << "sqlite3 (Debian sqlite3): " << renamed.err;
        const auto recovered = runner({name, "--recover", "--json"});
        ASSERT_EQ(recovered.exit_code, 0) << name << ": " << recovered.err;
        EXPECT_EQ(json::parse(recovered.out), json::parse(finished.out)) << name;
        EXPECT_EQ(state()["command"], "run-autonomous") << name;
    }
}

TEST_F(AutonomousLoop, RunCompleteRunsTheGivenPresetsOnce) {
    write_file("presets.json", R"([{"SCENARIO_NAME": "calm", "OUTCOME": "0"}])");
    const auto result =
        runner({"run-complete", dir_ + "/presets.json", "--seed", "3", "--workers", "2", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto report = json::parse(result.out);
    EXPECT_EQ(report["command"], "run-complete");
    EXPECT_EQ(report["iterations"], 1);
    EXPECT_EQ(report["stopped"], "--max-iterations 1 reached");
    EXPECT_DOUBLE_EQ(report["modules"]["steady"]["roi"].get<double>(), 1.0);
    EXPECT_DOUBLE_EQ(report["modules"]["flaky"]["roi"].get<double>(), 0.0);
    EXPECT_EQ(state()["iterations"][0]["presets"], json::array({"calm"}));
}

// The seeds' first example: --preset-count wins over the settings' fixed presets (with a
// warning), each iteration runs the previous one's presets adapted, and the loop stops when
// the ROI tracker, fed one delta per preset and iteration, says every module converged.
TEST_F(AutonomousLoop, GeneratedPresetsAdaptEachIterationUntilTheTrackerConverges) {
    write_settings(R"(
presets:
  - {SCENARIO_NAME: fixed_one, CPU_LIMIT: "2"}
workflows:
  - name: quick
    steps:
      - name: work
        run: [/bin/true]
)");
    const auto result = runner({"run-autonomous", "--preset-count", "3", "--max-iterations", "6",
                                "--seed", "3", "--preset-strategy", "rules"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.err.find("--preset-count 3: generated presets are run instead of the fixed"),
              std::string::npos)
        << result.err;
    const auto loop = state();
    const auto &iterations = loop["iterations"];
    ASSERT_GE(iterations.size(), 3u) << loop;
    ASSERT_EQ(iterations[0]["preset_bodies"].size(), 3u) << iterations[0];
    for (const auto &body : iterations[0]["preset_bodies"]) {
        EXPECT_NE(body["SCENARIO_NAME"], "fixed_one") << body;
    }
    EXPECT_TRUE(iterations[0]["adaptation"].empty());
    // Every later iteration ran the presets before it, stepped as its adaptation says: the
    // workflow held every run, so each key set gets harsher until its ladder ends.
    for (size_t i = 1; i < iterations.size(); ++i) {
        json expected = iterations[i - 1]["preset_bodies"];
        int changed = 0;
        for (size_t p = 0; p < expected.size(); ++p) {
            for (const auto &step : iterations[i]["adaptation"][p]["keys"]) {
                EXPECT_EQ(expected[p][step["key"].get<std::string>()], step["from"]) << step;
                expected[p][step["key"].get<std::string>()] = step["to"];
                changed += step["changed"].get<bool>() ? 1 : 0;
                EXPECT_NE(step["step"], "milder") << step;
            }
        }
        EXPECT_EQ(iterations[i]["preset_bodies"].size(), expected.size());
        for (size_t p = 0; p < expected.size(); ++p) {
            for (const char *key : {"CPU_LIMIT", "MEMORY_LIMIT", "THREAT_INTENSITY"}) {
                EXPECT_EQ(iterations[i]["preset_bodies"][p][key], expected[p][key]) << key;
            }
        }
        if (i == 1) {
            EXPECT_GT(changed, 0) << "the second iteration ran the same presets";
        }
    }
    EXPECT_EQ(loop["stopped"].get<std::string>().rfind("converged", 0), 0u) << loop["stopped"];
    EXPECT_NE(result.out.find("presets adapted: "), std::string::npos) << result.out;
}

TEST_F(AutonomousLoop, BadOptionsAreRefusedWithExit2) {
    for (const auto &[args, message] :
         std::vector<std::pair<std::vector<std::string>, std::string>>{
             {{"run-autonomous", "--max-iterations", "0"}, "--max-iterations 0 must be"},
             {{"run-autonomous", "--workflow", "nope"}, "--workflow nope names no workflow"},
             {{"run-autonomous", "--recover"}, "holds no unfinished run-autonomous"},
             {{"run-autonomous", "--roi-cycles", "0"}, "--roi-cycles 0 must be at least 1"},
             {{"run-autonomous", "--consecutive", "0"}, "--consecutive 0 must be at least 1"},
             {{"run-autonomous", "--synergy-threshold-weight", "0"},
              "--synergy-threshold-weight must be the weight of the newest value"},
             {{"run-autonomous", "--synergy-threshold-window", "1"},
              "--synergy-threshold-window 1 must be from 2 to 1000"},
             {{"run-autonomous", "--preset-strategy", "dqn"}, "--preset-strategy dqn"},
             {{"run-complete"}, "give the presets to run"}}) {
        const auto result = runner(args);
        EXPECT_EQ(result.exit_code, 2) << args[1] << ": " << result.out;
        EXPECT_NE(result.err.find(message), std::string::npos) << result.err;
    }
    EXPECT_FALSE(std::filesystem::exists(dir_ + "/data/autonomous_run.json"))
        << "a refused loop starts nothing";
}

}  // namespace
