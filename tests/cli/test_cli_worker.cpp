// `worker` refuses to make a shard of a matrix other than the one the submitting host
// planned: a settings file edited since submission, or a plan that differs (a preset file,
// a stub plugin), would record runs under the wrong names. The job folder is written here
// as the host writes it, so no Slurm daemon is needed. And --on slurm without Slurm's
// commands refuses before it records anything.
#include <unistd.h>

#include <sbx/process_identity.hpp>
#include <sbx/random.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"

namespace sbx::test {
namespace {

using json = nlohmann::json;

class WorkerCommand : public CliTest {
  protected:
    void SetUp() override {
        CliTest::SetUp();
        write_settings(R"(
presets: [{SCENARIO_NAME: normal}]
workflows:
  - name: w
    steps: [{run: [/bin/true]}]
)");
        job_ = dir_ + "/job";
        std::filesystem::create_directories(job_ + "/attempt-1");
        std::ofstream(job_ + "/attempt-1/tasks.json") << "[[[0,0]]]\n";
    }
    void write_job(const std::string &config_digest) {
        const json job = {{"program", SBX_BINARY},
                          {"cwd", dir_},
                          {"config", settings_},
                          {"config_digest", config_digest},
                          {"plugin_dirs", json::array()},
                          {"log_level", "info"},
                          {"json_logs", false},
                          {"command", {"run", "--runs", "1", "--seed", "1", "--workers", "1"}}};
        std::ofstream(job_ + "/job.json") << job.dump();
    }
    void write_plan(const std::string &digest) {
        std::ofstream(job_ + "/attempt-1/plan_digest") << digest << "\n";
    }
    std::string settings_digest() const {
        std::ifstream in(settings_, std::ios::binary);
        const std::string text{std::istreambuf_iterator<char>(in),
                               std::istreambuf_iterator<char>()};
        char digest[17];
        std::snprintf(digest, sizeof digest, "%016llx",
                      static_cast<unsigned long long>(fnv1a64(text)));
        return digest;
    }
    CommandResult worker() {
        return run_command({SBX_BINARY, "run-shard", "--job", job_, "--shard", "0/1"}, {}, dir_);
    }
    std::string done() const { return job_ + "/attempt-1/shard-0/done"; }
    std::string job_;
};

TEST_F(WorkerCommand, SettingsEditedSinceSubmissionAreRefused) {
    write_job("0000000000000000");
    const auto result = worker();
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_NE(result.err.find("run-shard: the settings file " + settings_ +
                              " changed since the matrix was submitted"),
              std::string::npos)
        << result.err;
    EXPECT_FALSE(std::filesystem::exists(done()));
    // What the host reads to stop instead of submitting a refused shard again.
    std::ifstream refused(job_ + "/attempt-1/shard-0/refused");
    const std::string said{std::istreambuf_iterator<char>(refused),
                           std::istreambuf_iterator<char>()};
    EXPECT_EQ(said.rfind("node ", 0), 0U) << said;
    EXPECT_NE(said.find(": run-shard: the settings file "), std::string::npos) << said;
}

TEST_F(WorkerCommand, AnotherPlanIsRefusedAndTheHostsOwnIsMade) {
    write_job(settings_digest());
    write_plan("0123456789abcdef");
    const auto refused = worker();
    EXPECT_EQ(refused.exit_code, 2) << refused.err;
    const std::string marker = "plans a different matrix than the submitting host did (plan ";
    const auto at = refused.err.find(marker);
    ASSERT_NE(at, std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("the host's 0123456789abcdef"), std::string::npos) << refused.err;
    EXPECT_FALSE(std::filesystem::exists(done()));

    // The same plan as the worker's own: the shard's one run is made and recorded.
    write_plan(refused.err.substr(at + marker.size(), 16));
    const auto made = worker();
    EXPECT_EQ(made.exit_code, 0) << made.err;
    EXPECT_TRUE(std::filesystem::exists(done())) << made.out << made.err;
}

// A node cannot write the TMPDIR the submitting host exported (a login node's scratch): the
// worker drops it and makes its shard with the node's default, saying so.
TEST_F(WorkerCommand, ATmpdirTheNodeCannotWriteIsDroppedAndTheShardMade) {
    write_job(settings_digest());
    const auto made = run_command({SBX_BINARY, "run-shard", "--job", job_, "--shard", "0/1"},
                                  {{"TMPDIR", "/proc/sbx-no-such-folder"}}, dir_);
    EXPECT_EQ(made.exit_code, 0) << made.err;
    EXPECT_TRUE(std::filesystem::exists(done())) << made.err;
    EXPECT_NE(made.err.find("TMPDIR=/proc/sbx-no-such-folder is not a folder node "),
              std::string::npos)
        << made.err;
}

// What a task killed on this node left (a state record whose owner is dead) is swept by
// the next task on the node before it runs; a live owner's record stays.
TEST_F(WorkerCommand, WhatAKilledTaskLeftOnItsNodeIsSweptBeforeTheShard) {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    const auto state = std::filesystem::path(dir_) / ("nodes-" + std::to_string(::geteuid())) /
                       host / "state" / "disk_corruption";
    std::filesystem::create_directories(state);
    std::ofstream(state / "1-1.report") << "host 999999999 1\npid 3 examined 10 flipped 1\n";
    std::ofstream(state / "2-1.report")
        << "host " << ::getpid() << " " << process_start_time(::getpid()) << "\n";
    write_job(settings_digest());
    const auto made = worker();
    EXPECT_EQ(made.exit_code, 0) << made.err;
    EXPECT_FALSE(std::filesystem::exists(state / "1-1.report")) << made.err;
    EXPECT_TRUE(std::filesystem::exists(state / "2-1.report")) << "a live owner's record stays";
    EXPECT_NE(made.err.find(std::string("removed what a killed task left on node ") + host +
                            ": disk_corruption"),
              std::string::npos)
        << made.err;
}

// purge-stale run on a node sweeps the node's folder under the Slurm root too (here the
// default root, <data_dir>/slurm); check-resources lists what is there first.
TEST_F(WorkerCommand, PurgeStaleOnANodeSweepsItsFolderUnderTheSlurmRoot) {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    const auto state = std::filesystem::path(dir_) / "data" / "slurm" /
                       ("nodes-" + std::to_string(::geteuid())) / host / "state" /
                       "disk_corruption";
    std::filesystem::create_directories(state);
    std::ofstream(state / "1-1.report") << "host 999999999 1\n";
    const auto listed = runner({"check-resources"});
    EXPECT_EQ(listed.exit_code, 1) << listed.out << listed.err;
    EXPECT_NE(listed.out.find("left disk_corruption: "), std::string::npos) << listed.out;
    EXPECT_TRUE(std::filesystem::exists(state / "1-1.report"));
    const auto purged = runner({"purge-stale"});
    EXPECT_EQ(purged.exit_code, 0) << purged.err;
    EXPECT_NE(purged.out.find("removed disk_corruption: "), std::string::npos) << purged.out;
    EXPECT_FALSE(std::filesystem::exists(state / "1-1.report"));
}

// Without Slurm's commands, --on slurm says what to install before anything is recorded.
TEST_F(WorkerCommand, OnSlurmWithoutSbatchSaysWhatToInstallAndBeginsNoSession) {
    std::filesystem::create_directories(dir_ + "/empty");
    const auto result = run_command({SBX_BINARY, "--config", settings_, "--data-dir",
                                     dir_ + "/data", "run-scenarios", "w", "--on", "slurm"},
                                    {{"PATH", dir_ + "/empty"}}, dir_);
    EXPECT_EQ(result.exit_code, 3) << result.err;
    EXPECT_NE(result.err.find("run-scenarios: --on slurm needs Slurm's client commands, and "
                              "sbatch does not run here"),
              std::string::npos)
        << result.err;
    if (std::filesystem::exists(dir_ + "/data/metrics.db")) {
        EXPECT_EQ(query("SELECT count(*) FROM sessions")[0][0], "0");
    }
}

}  // namespace
}  // namespace sbx::test
