// adapt-presets end to end: real `run` matrices grow roi_history.json, adapt-presets
// steps each preset from its scenario's history (the rules while it is short, then the
// learned policy), the adapted file runs as a preset file, and the policy learns from the
// ROI the adapted presets moved; bad options, variables and policy files are exit 2.
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"

namespace {

using nlohmann::json;

class AdaptPresets : public sbx::test::CliTest {
  protected:
    void SetUp() override {
        CliTest::SetUp();
        // The target needs a 300 MiB buffer: it holds at 512Mi, and one harsher step of
        // `squeeze` (256Mi) breaks it (an OOM kill under a memory cgroup, a failed
        // allocation under RLIMIT_AS).
        write_settings(R"(
presets:
  - {SCENARIO_NAME: normal}
  - {SCENARIO_NAME: squeeze, CPU_LIMIT: "2", MEMORY_LIMIT: 512Mi, THREAT_INTENSITY: "50"}
workflows:
  - name: guarded
    steps:
      - name: check
        run: [dd, if=/dev/zero, of=/dev/null, bs=300M, count=1]
)");
    }

    sbx::test::CommandResult runner_with(const std::vector<std::string> &args,
                                         const std::map<std::string, std::string> &env) {
        std::vector<std::string> argv = {SBX_BINARY, "--config", settings_, "--data-dir",
                                         dir_ + "/data"};
        argv.insert(argv.end(), args.begin(), args.end());
        return sbx::test::run_command(argv, env, dir_);
    }

    json adapt(const std::vector<std::string> &extra) {
        std::vector<std::string> args = {"adapt-presets", "--seed", "1", "--json"};
        args.insert(args.end(), extra.begin(), extra.end());
        const auto result = runner(args);
        EXPECT_EQ(result.exit_code, 0) << result.err;
        return json::parse(result.out);
    }

    static const json &decision_of(const json &report, const std::string &scenario) {
        for (const auto &decision : report["decisions"]) {
            if (decision["scenario"] == scenario) {
                return decision;
            }
        }
        ADD_FAILURE() << "no decision for " << scenario << " in " << report;
        static const json none;
        return none;
    }

    static json step_of(const json &decision, const std::string &key) {
        for (const auto &step : decision["keys"]) {
            if (step["key"] == key) {
                return step;
            }
        }
        return json();
    }
};

TEST_F(AdaptPresets, StepsPresetsFromTheirHistoryAndLearnsFromWhatTheStepsMoved) {
    ASSERT_EQ(runner({"run", "--runs", "1", "--seed", "1"}).exit_code, 0);

    // One ROI value: the learned policy waits, the rules step; squeeze held every run, so
    // every key it sets gets one rung harsher; the baseline stays as written.
    const auto first = adapt({"--out", dir_ + "/adapted.json"});
    EXPECT_EQ(first["strategy"], "q_learning");
    EXPECT_EQ(decision_of(first, "normal")["strategy"], "") << first;
    const auto &squeeze = decision_of(first, "squeeze");
    EXPECT_EQ(squeeze["strategy"], "rules") << squeeze;
    EXPECT_NE(squeeze["note"].get<std::string>().find("it has 1"), std::string::npos) << squeeze;
    EXPECT_EQ(step_of(squeeze, "CPU_LIMIT")["to"], "1") << squeeze;
    EXPECT_EQ(step_of(squeeze, "MEMORY_LIMIT")["to"], "256Mi") << squeeze;
    EXPECT_EQ(step_of(squeeze, "THREAT_INTENSITY")["to"], "70") << squeeze;
    EXPECT_EQ(step_of(squeeze, "THREAT_INTENSITY")["why"], "rules: held every run") << squeeze;
    EXPECT_TRUE(step_of(squeeze, "NETWORK_LATENCY_MS").is_null()) << "an absent key is never added";
    std::ifstream adapted_file(dir_ + "/adapted.json");
    const auto adapted = json::parse(adapted_file);
    ASSERT_EQ(adapted.size(), 2u);
    EXPECT_EQ(adapted[0], (json{{"SCENARIO_NAME", "normal"}}));
    EXPECT_EQ(adapted[1]["THREAT_INTENSITY"], "70") << adapted;

    // The adapted file is a preset file: squeeze now breaks the workflow.
    ASSERT_EQ(runner({"run", "--runs", "1", "--seed", "1", "--preset-file", dir_ + "/adapted.json"})
                  .exit_code,
              0);
    EXPECT_EQ(query("SELECT count(*) FROM cells WHERE passed = 0 AND flag = 'on'")[0][0], "1");

    // The policy learns from the move: the ROI fell from 1 to 0 after its steps.
    const auto second = adapt({"--preset-file", dir_ + "/adapted.json"});
    const auto &learned = decision_of(second, "squeeze");
    EXPECT_DOUBLE_EQ(learned["reward"].get<double>(), 1.0) << learned;
    EXPECT_EQ(learned["signals"]["roi"], "falling") << learned;
    // A falling ROI eases the resources (the seeds' rule); the threat keeps its rung.
    EXPECT_EQ(step_of(learned, "CPU_LIMIT")["to"], "2") << learned;
    EXPECT_EQ(step_of(learned, "THREAT_INTENSITY")["step"], "keep") << learned;
    std::ifstream policy_file(dir_ + "/data/preset_policy.json");
    const auto policy = json::parse(policy_file);
    EXPECT_EQ(policy["rewards"], 1);
    // Q(s, harsher) = alpha · (reward + gamma · 0) = 0.5 in the state it was taken in.
    const auto &row =
        policy["table"]["roi=unknown synergy=unknown security=unknown"]["MEMORY_LIMIT"];
    EXPECT_DOUBLE_EQ(row["values"][2].get<double>(), 0.5) << policy;
    EXPECT_EQ(row["visits"][2], 1) << policy;
    EXPECT_TRUE(policy["pending"].contains("squeeze")) << "the new steps wait for their reward";

    // With three ROI values the learned policy decides.
    ASSERT_EQ(runner({"run", "--runs", "1", "--seed", "1"}).exit_code, 0);
    const auto third = adapt({"--strategy", "q_learning"});
    EXPECT_EQ(decision_of(third, "squeeze")["strategy"], "q_learning") << third;
}

TEST_F(AdaptPresets, TheRulesAloneKeepNoPolicy) {
    ASSERT_EQ(runner({"run", "--runs", "1", "--seed", "1"}).exit_code, 0);
    const auto result = runner({"adapt-presets", "--strategy", "rules", "--seed", "1"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("THREAT_INTENSITY     50 -> 70"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("adapted presets in"), std::string::npos) << result.out;
    EXPECT_FALSE(std::filesystem::exists(dir_ + "/data/preset_policy.json"));
    EXPECT_TRUE(std::filesystem::exists(dir_ + "/data/adapted_presets.json"));
}

TEST_F(AdaptPresets, BadOptionsVariablesAndPolicyFilesAreRefusedWithExit2) {
    for (const auto &[args, message] :
         std::vector<std::pair<std::vector<std::string>, std::string>>{
             {{"adapt-presets", "--axis", "LOAD:0:100"}, "belongs to find-boundaries"},
             {{"adapt-presets", "--strategy", "double_dqn"}, "write q_learning"},
             {{"adapt-presets", "--preset-count", "0"}, "--preset-count 0"},
             {{"adapt-presets", "--out", dir_ + "/no/such/dir/x.json"}, "--out"}}) {
        const auto result = runner(args);
        EXPECT_EQ(result.exit_code, 2) << args[1] << ": " << result.out;
        EXPECT_NE(result.err.find(message), std::string::npos) << result.err;
    }
    const auto variable =
        runner_with({"adapt-presets"}, {{"SANDBOX_PRESET_RL_STRATEGY", "double_dqn"}});
    EXPECT_EQ(variable.exit_code, 2);
    EXPECT_NE(variable.err.find("SANDBOX_PRESET_RL_STRATEGY"), std::string::npos) << variable.err;

    const std::string damaged = dir_ + "/policy.json";
    {
        std::ofstream out(damaged);
        out << R"({"format": "sandbox-runner/preset_policy/2", "alpha": 2})";
    }
    const auto result = runner_with({"adapt-presets"}, {{"SANDBOX_PRESET_RL_PATH", damaged}});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find(damaged + ": a damaged preset policy"), std::string::npos)
        << result.err;
}

}  // namespace
