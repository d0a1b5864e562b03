// What injectors did reaches the run's record: the command's --seed decides their draws (the
// same seed, the same premature kills; another seed, others), each step's stored result says
// what each injector did under `injections`, and numbers an injector reports (the thread
// burst) land in the run's metrics beside the host's concurrency metrics.
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "cli_fixture.hpp"

namespace {

using nlohmann::json;

class InjectionRecords : public sbx::test::CliTest {
  protected:
    void SetUp() override {
        CliTest::SetUp();
        write_settings(R"(
injectors: [timeout, concurrency_spike]
plugins:
  timeout: {timeout_kill_max_ms: 400}
presets:
  - {SCENARIO_NAME: early_kill, FAILURE_MODES: [timeout]}
  - {SCENARIO_NAME: crowded, THREAD_BURST: "4", ASYNC_TASK_BURST: "3", CONCURRENCY_LEVEL: "2"}
workflows:
  - name: probe
    steps:
      - run: [/bin/sh, -c, '[ -n "$SANDBOX_THREAD_BURST_PID" ] || sleep 5']
)");
    }

    // The premature-kill moments of the newest session's runs, in repetition order.
    std::vector<std::string> kill_moments() {
        std::vector<std::string> moments;
        for (const auto &row : query(
                 "SELECT json_extract(steps.result, '$.injections.timeout.kill_ms') FROM steps "
                 "JOIN runs ON runs.id = steps.run_id JOIN presets ON presets.id = runs.preset_id "
                 "WHERE presets.name = 'early_kill' AND runs.session_id = (SELECT max(id) FROM "
                 "sessions) ORDER BY runs.repetition")) {
            moments.push_back(row[0]);
        }
        return moments;
    }
};

TEST_F(InjectionRecords, TheCommandSeedDecidesTheInjectorsDraws) {
    ASSERT_EQ(runner({"run", "--workflow", "probe", "--runs", "4", "--seed", "11"}).exit_code, 0);
    const auto first = kill_moments();
    ASSERT_EQ(first.size(), 4U);
    for (const auto &moment : first) {
        EXPECT_GE(std::stol(moment), 40) << "10% of timeout_kill_max_ms";
        EXPECT_LE(std::stol(moment), 360) << "90% of timeout_kill_max_ms";
    }
    EXPECT_GT(std::set<std::string>(first.begin(), first.end()).size(), 1U)
        << "each run draws its own moment";
    ASSERT_EQ(
        runner({"run", "--workflow", "probe", "--runs", "4", "--seed", "11", "--workers", "2"})
            .exit_code,
        0);
    EXPECT_EQ(kill_moments(), first) << "the same seed, the same kills, whatever the workers";
    ASSERT_EQ(runner({"run", "--workflow", "probe", "--runs", "4", "--seed", "12"}).exit_code, 0);
    EXPECT_NE(kill_moments(), first) << "another seed, other kills";
    EXPECT_EQ(query("SELECT DISTINCT status FROM steps JOIN runs ON runs.id = steps.run_id JOIN "
                    "presets ON presets.id = runs.preset_id WHERE presets.name = 'early_kill'"),
              (std::vector<std::vector<std::string>>{{"TO"}}));
}

TEST_F(InjectionRecords, TheRecordSaysWhatEachInjectorDidAndKeepsItsMetrics) {
    const auto result = runner({"run", "--workflow", "probe", "--runs", "2", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto rows = query(
        "SELECT steps.result FROM steps JOIN runs ON runs.id = steps.run_id JOIN presets ON "
        "presets.id = runs.preset_id WHERE presets.name = 'crowded'");
    ASSERT_EQ(rows.size(), 2U);
    for (const auto &row : rows) {
        const json step = json::parse(row[0]);
        EXPECT_EQ(step["status"], "OK") << step.dump();
        EXPECT_EQ(step["injections"]["concurrency_spike"]["threads"], 4) << step.dump();
        EXPECT_EQ(step["injections"]["concurrency_spike"]["async_tasks"], 3) << step.dump();
        EXPECT_FALSE(step["injections"].contains("timeout")) << "timeout said nothing here";
    }
    const auto metric = [&](const std::string &name) {
        return query(
            "SELECT DISTINCT metrics.value FROM metrics JOIN runs ON runs.id = "
            "metrics.run_id JOIN presets ON presets.id = runs.preset_id WHERE "
            "presets.name = 'crowded' AND metrics.name = '" +
            name + "'");
    };
    EXPECT_EQ(metric("thread_burst"), (std::vector<std::vector<std::string>>{{"4.0"}}));
    EXPECT_EQ(metric("async_task_burst"), (std::vector<std::vector<std::string>>{{"3.0"}}));
    EXPECT_EQ(metric("concurrency_level"), (std::vector<std::vector<std::string>>{{"2.0"}}));
    const json report = json::parse(result.out);
    EXPECT_EQ(report["cells"][1]["metrics"]["thread_burst"], 4.0) << report.dump();
    EXPECT_EQ(report["cells"][1]["active_injectors"], json::array({"concurrency_spike"}));
}

}  // namespace
