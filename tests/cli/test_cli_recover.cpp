// An interrupted scenario matrix (SIGKILL, SIGTERM) is finished by --recover: only the
// cells that did not finish run again, in the same session, and the report equals the
// report of an uninterrupted run with the same seed.
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"

namespace {

using nlohmann::json;

// Inputs come from the seed (hostile payloads, drifted records), and the step passes for
// short ones: fractional, reproducible ROIs. Each run takes ~30 ms so a kill lands mid-matrix.
constexpr const char *kSettings = R"(
robustness_repetitions: 1
workflows:
  - name: slow-short
    steps:
      - run: [/bin/sh, -c, 'sleep 0.03; test ${#1} -lt 12', sh, "{{input.text}}"]
        inputs: {text: {type: string, example: fine}}
)";

class RecoverMatrix : public sbx::test::CliTest {
  protected:
    // The ROI-bearing part of a summary: what must not depend on the interruption.
    static json verdict(const json &summary) {
        json out{{"worst", summary["worst_scenario"]}, {"status", summary["status"]}};
        for (const auto &[name, scenario] : summary["scenarios"].items()) {
            out[name] = {scenario["roi"], scenario["roi_off"], scenario["roi_delta"],
                         scenario["raroi_delta"], scenario["runs"]};
        }
        return out;
    }

    void interrupt_and_recover(int signal_number) {
        write_settings(kSettings);
        const std::vector<std::string> matrix = {
            "run-scenarios", "slow-short", "--repetitions", "8",
            "--seed",        "4",          "--shrink-runs", "0"};
        std::vector<std::string> argv = {SBX_BINARY, "--config", settings_, "--data-dir",
                                         dir_ + "/data"};
        argv.insert(argv.end(), matrix.begin(), matrix.end());
        const int pid =
            sbx::test::spawn_background(argv, {{"TMPDIR", dir_}}, dir_, dir_ + "/host.log");
        // 80 runs in all; stop the host once a third are committed.
        const int64_t seen = wait_for_runs(28, std::chrono::seconds(60));
        ASSERT_GE(seen, 28) << "the host did not get a third of the way in 60 s";
        ASSERT_EQ(kill(pid, signal_number), 0);
        int status = 0;
        ASSERT_EQ(waitpid(pid, &status, 0), pid);
        const auto cells_before = std::stoll(query("SELECT count(*) FROM cells")[0][0]);
        ASSERT_LT(cells_before, 10) << "the kill came too late to prove anything";
        ASSERT_NE(query("SELECT status FROM sessions")[0][0], "finished");

        auto with_recover = matrix;
        with_recover.resize(2);
        with_recover.insert(with_recover.end(), {"--recover", "--json", "--shrink-runs", "0"});
        const auto recovered = runner(with_recover);
        ASSERT_EQ(recovered.exit_code, 0) << recovered.err;
        // Same session, whole matrix, every run of every cell exactly once.
        EXPECT_EQ(query("SELECT count(*) FROM sessions")[0][0], "1");
        EXPECT_EQ(query("SELECT status FROM sessions")[0][0], "finished");
        EXPECT_EQ(query("SELECT count(*) FROM cells")[0][0], "10");
        EXPECT_EQ(query("SELECT count(*) FROM runs")[0][0], "80");
        // Cells finished before the kill were not run again.
        EXPECT_EQ(
            query("SELECT count(*) FROM cells WHERE id <= " + std::to_string(cells_before))[0][0],
            std::to_string(cells_before));

        const std::string reference_dir = dir_ + "/reference";
        auto reference_argv = std::vector<std::string>{SBX_BINARY, "--config", settings_,
                                                       "--data-dir", reference_dir};
        reference_argv.insert(reference_argv.end(), matrix.begin(), matrix.end());
        reference_argv.push_back("--json");
        const auto reference = sbx::test::run_command(reference_argv, {}, dir_);
        ASSERT_EQ(reference.exit_code, 0) << reference.err;
        EXPECT_EQ(verdict(json::parse(recovered.out)), verdict(json::parse(reference.out)));
    }
};

TEST_F(RecoverMatrix, AfterSigkillGivesTheUninterruptedReport) {
    interrupt_and_recover(SIGKILL);
}

TEST_F(RecoverMatrix, AfterSigtermGivesTheUninterruptedReport) {
    interrupt_and_recover(SIGTERM);
    EXPECT_NE(query("SELECT options FROM sessions")[0][0].find("\"repetitions\":8"),
              std::string::npos);
}

}  // namespace
