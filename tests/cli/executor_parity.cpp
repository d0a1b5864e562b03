// The small workflow passes except where the scenario names an input problem: the same
// verdicts wherever /bin/sh runs it (the host's, busybox in a container or in a guest).
#include "executor_parity.hpp"

#include <gtest/gtest.h>

namespace sbx::test {

using nlohmann::json;

namespace {

constexpr const char *kWorkflow = R"yaml(
workflows:
  - name: small
    id: 7
EXECUTOR    steps:
      - name: greet
        run: [/bin/sh, -c, 'echo "hello $SCENARIO_NAME"; case "$SCENARIO_NAME" in hostile_input|schema_drift) exit 1;; esac']
        expect: {exit_code: 0}
)yaml";

}  // namespace

std::string ExecutorParityTest::parity_settings(const std::string &executor_line) {
    std::string yaml = kWorkflow;
    yaml.replace(yaml.find("EXECUTOR"), 8, executor_line);
    return yaml;
}

json ExecutorParityTest::scenarios(const std::string &executor_line) {
    write_settings(parity_settings(executor_line));
    const auto result =
        runner({"run-scenarios", "7", "--repetitions", "2", "--seed", "3", "--json"});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return json::parse(result.out);
}

std::set<std::string> ExecutorParityTest::result_keys() {
    std::set<std::string> keys;
    for (const auto &row : query("SELECT result FROM steps")) {
        const json result = json::parse(row[0]);
        for (const auto &[key, value] : result.items()) {
            keys.insert(key);
        }
    }
    return keys;
}

void ExecutorParityTest::expect_same_verdicts(const json &local, const json &other) {
    ASSERT_EQ(local["order"], other["order"]);
    for (const auto &name : local["order"]) {
        SCOPED_TRACE(name.get<std::string>());
        const auto &l = local["scenarios"][name.get<std::string>()];
        const auto &o = other["scenarios"][name.get<std::string>()];
        EXPECT_DOUBLE_EQ(l["roi"].get<double>(), o["roi"].get<double>());
        EXPECT_DOUBLE_EQ(l["roi_delta"].get<double>(), o["roi_delta"].get<double>());
        EXPECT_EQ(l["passed"], o["passed"]);
    }
    EXPECT_EQ(local["worst_scenario"], other["worst_scenario"]);
}

void ExecutorParityTest::expect_abi_result_keys(const std::set<std::string> &keys,
                                                const char *executor) {
    for (const char *key :
         {"status", "exit_code", "signal", "wall_s", "cpu_user_s", "cpu_sys_s", "max_rss_kb",
          "stdout", "stderr", "stdout_bytes", "stderr_bytes", "stdout_truncated",
          "stderr_truncated", "limit", "limits_hit", "error", "run_id"}) {
        EXPECT_EQ(keys.count(key), 1U) << executor << " results lack " << key;
    }
}

}  // namespace sbx::test
