// The small workflow passes except where the scenario names an input problem: the same
// verdicts wherever /bin/sh runs it (the host's, busybox in a container or in a guest).
#include "executor_parity.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include "processes.hpp"

namespace sbx::test {

using nlohmann::json;

namespace {

constexpr const char *kWorkflow = R"yaml(
robustness_repetitions: 1  # every scenario twice (--repetitions 2): a guest runs them all
workflows:
  - name: small
    id: 7
EXECUTOR    steps:
      - name: greet
        run: [/bin/sh, -c, 'echo "hello $SCENARIO_NAME"; case "$SCENARIO_NAME" in hostile_input|schema_drift) exit 1;; esac']
        expect: {exit_code: 0}
)yaml";

// Counts, then leaves one of each. SECONDS: the sleep's length, unique to the test process, so
// the count and the check afterwards never mistake another test's sleeper for this one's.
constexpr const char *kLeftoverWorkflow = R"yaml(
presets: [{SCENARIO_NAME: normal}]
workflows:
  - name: leftovers
    id: 9
EXECUTOR    steps:
      - name: count-then-leave
        run:
          - /bin/sh
          - -c
          - |
            files=$(ls -a /tmp | grep -c '^barsmark-')
            sleepers=0
            for p in /proc/[0-9]*; do
              if [ "$(cat $p/comm 2>/dev/null)" = sleep ] && grep -q SECONDS $p/cmdline 2>/dev/null; then
                sleepers=$((sleepers + 1))
              fi
            done
            echo "files=$files sleepers=$sleepers"
            touch /tmp/barsmark-$RANDOM$$
            setsid sleep SECONDS &
            [ "$files" = 0 ] && [ "$sleepers" = 0 ]
        expect: {exit_code: 0}
)yaml";

// Each way in, as hex on a line of its own: stdin, the file, the JSON document, argv, env.
constexpr const char *kRawBytesWorkflow = R"yaml(
presets: [{SCENARIO_NAME: normal}]
workflows:
  - name: raw_bytes
EXECUTOR    steps:
      - name: see
        run:
          - /bin/sh
          - -c
          - |
            hex() { od -An -tx1 -v | tr -d ' \n'; echo; }
            hex; hex < raw.bin; hex < doc.json
            printf %s "$1" | hex; printf %s "$V" | hex
          - sh
          - "{{input.s}}"
        stdin: "{{input.s}}"
        env: {V: "{{input.s}}"}
        files: {raw.bin: "{{input.s}}", doc.json: "{{input.doc}}"}
        inputs:
          s: {type: string}
          doc: {type: json}
)yaml";

// base64 of "a\xFF\0b\xC3(\n\"\\": a lone 0xFF and a truncated sequence are invalid UTF-8.
constexpr const char *kRawBytesInputs =
    R"([{"s": {"$bytes": "Yf8AYsMoCiJc"}, "doc": {"k": [1, {"$bytes": "Yf8AYsMoCiJc"}]}}])";

std::string sleeper_seconds() {
    return std::to_string(600000 + ::getpid() % 100000);
}

}  // namespace

void ExecutorParityTest::expect_every_run_starts_clean(const std::string &executor_line) {
    std::string yaml = kLeftoverWorkflow;
    yaml.replace(yaml.find("EXECUTOR"), 8, executor_line);
    for (size_t at; (at = yaml.find("SECONDS")) != std::string::npos;) {
        yaml.replace(at, 7, sleeper_seconds());
    }
    write_settings(yaml);
    const auto result = runner({"run", "--runs", "3", "--workers", "1"});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    const auto rows = query(
        "SELECT r.passed, json_extract(s.result, '$.stdout'), json_extract(s.result, '$.status') "
        "FROM runs r JOIN steps s ON s.run_id = r.id ORDER BY r.id");
    ASSERT_EQ(rows.size(), 3U) << result.err;
    for (size_t run = 0; run < rows.size(); ++run) {
        SCOPED_TRACE("run " + std::to_string(run + 1));
        EXPECT_EQ(rows[run][1], "files=0 sleepers=0\n") << "status " << rows[run][2];
        EXPECT_EQ(rows[run][0], "1");
    }
    EXPECT_EQ(leftover_sleepers(), std::vector<int>()) << "sleeps left running on the machine";
}

const char *ExecutorParityTest::raw_bytes_stdout() {
    // The document is {"k":[1,"a\xFF\u0000b\xC3(\n\"\\"]}: the raw bytes inside a string.
    return "61ff0062c3280a225c\n"
           "61ff0062c3280a225c\n"
           "7b226b223a5b312c2261ff5c753030303062c3285c6e5c225c5c225d7d\n"
           "61ff62c3280a225c\n"
           "61ff62c3280a225c\n";
}

std::string ExecutorParityTest::expect_raw_bytes_reach_the_target(
    const std::string &executor_line, const std::string &settings_head) {
    std::string yaml = kRawBytesWorkflow;
    yaml.replace(yaml.find("EXECUTOR"), 8, executor_line);
    write_settings(settings_head + yaml);
    const auto result =
        run_command({SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/data", "run"},
                    {{"SANDBOX_INPUT_STUBS", kRawBytesInputs}}, dir_);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    const auto rows = query(
        "SELECT r.id, r.inputs, json_extract(s.result, '$.stdout'), "
        "json_extract(s.result, '$.host_notes'), s.result FROM runs r JOIN steps s ON "
        "s.run_id = r.id ORDER BY r.id DESC LIMIT 1");
    if (rows.empty()) {
        ADD_FAILURE() << "no run recorded: " << result.err;
        return "";
    }
    EXPECT_EQ(rows[0][2], raw_bytes_stdout()) << rows[0][4];
    EXPECT_EQ(json::parse(rows[0][1]), json::parse(kRawBytesInputs)[0])
        << "the record keeps the $bytes values as given";
    EXPECT_EQ(json::parse(rows[0][3]),
              json({"argv[4]: 1 NUL byte(s) removed (a C string cannot carry them)",
                    "env.V: 1 NUL byte(s) removed (a C string cannot carry them)"}));
    return rows[0][0];
}

std::vector<int> ExecutorParityTest::leftover_sleepers() const {
    std::vector<int> found;
    const std::string marker = sleeper_seconds();
    for (const sbx::test::LiveProcess &process : sbx::test::live_processes()) {
        if (process.cmdline.rfind(std::string("sleep\0", 6) + marker, 0) == 0) {
            found.push_back(process.pid);
        }
    }
    return found;
}

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

std::string ExecutorParityTest::steps_of(const std::string &scenario) {
    std::string text = "the runs of " + scenario + " under the second executor:";
    for (const auto &row : query("SELECT r.id, r.flag, s.result FROM runs r JOIN presets p ON "
                                 "p.id = r.preset_id JOIN steps s ON s.run_id = r.id WHERE "
                                 "p.name = '" +
                                 scenario + "' ORDER BY r.id")) {
        text += "\n  run " + row[0] + " (" + row[1] + "): " + row[2];
    }
    return text;
}

void ExecutorParityTest::expect_same_verdicts(const json &local, const json &other) {
    ASSERT_EQ(local["order"], other["order"]);
    for (const auto &name : local["order"]) {
        SCOPED_TRACE(name.get<std::string>());
        const auto &l = local["scenarios"][name.get<std::string>()];
        const auto &o = other["scenarios"][name.get<std::string>()];
        // On a mismatch, the second executor's steps say why (an engine error, a timeout).
        const bool same = l["roi"] == o["roi"] && l["roi_delta"] == o["roi_delta"];
        const std::string why = same ? "" : steps_of(name.get<std::string>());
        EXPECT_DOUBLE_EQ(l["roi"].get<double>(), o["roi"].get<double>()) << why;
        EXPECT_DOUBLE_EQ(l["roi_delta"].get<double>(), o["roi_delta"].get<double>()) << why;
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
