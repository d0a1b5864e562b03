// The worker side of `--on slurm`: a job folder read for one task, and what it writes back.
#include <gtest/gtest.h>

#include <fstream>

#include "cluster/matrix_placement.hpp"
#include "cluster/shard_job.hpp"
#include "cluster/slurm_runs.hpp"
#include "util/errors.hpp"
#include "util/temp_dir.hpp"

namespace sbx::cluster {
namespace {

namespace fs = std::filesystem;

void write(const fs::path &path, const std::string &text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

std::string read(const fs::path &path) {
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class ShardJobTest : public ::testing::Test {
  protected:
    TempDir root_{fs::temp_directory_path(), "shard-job-"};
    fs::path folder_ = root_.path() / "s1-abc";

    void SetUp() override {
        write(folder_ / "job.json", R"({"command": ["run-scenarios", "wf"]})");
        write(folder_ / "attempt-2" / "tasks.json", "[[[0, 0], [1, 0]], [[2, 1]]]");
        write(folder_ / "attempt-2" / "plan_digest", "0123abcd\n");
    }
};

TEST_F(ShardJobTest, ReadsTheShardsRunsAndThePlanDigest) {
    write(folder_ / "attempt-2" / "shard-1" / kRefusedFile, "node n1: earlier\n");
    const auto job = read_shard_job(folder_.string() + "/", 2, "1/2");
    EXPECT_EQ(job.folder, fs::weakly_canonical(folder_));
    EXPECT_EQ(job.shard, 1);
    EXPECT_EQ(job.shards, 2);
    EXPECT_EQ(job.data_dir, job.folder / "attempt-2" / "shard-1");
    EXPECT_EQ(job.assignment.runs, (std::set<engine::PlannedRun>{{2, 1}}));
    EXPECT_EQ(job.assignment.plan_digest, "0123abcd");
    EXPECT_EQ(job.manifest["command"][0], "run-scenarios");
    // A requeued task's earlier refusal is gone before this one runs.
    EXPECT_FALSE(fs::exists(job.data_dir / kRefusedFile));
}

TEST_F(ShardJobTest, AShardOutsideTheTasksIsRefused) {
    EXPECT_THROW(read_shard_job(folder_.string(), 2, "2/2"), InputError);
    EXPECT_THROW(read_shard_job(folder_.string(), 2, "1"), InputError);
    EXPECT_THROW(read_shard_job(folder_.string(), 2, "-1/2"), InputError);
    // tasks.json holds two shards, not three.
    EXPECT_THROW(read_shard_job(folder_.string(), 2, "0/3"), InputError);
    // No attempt 1 was submitted.
    EXPECT_THROW(read_shard_job(folder_.string(), 1, "0/2"), InputError);
}

TEST_F(ShardJobTest, DoneAndRefusedAreWrittenIntoTheShardsDataDir) {
    const auto job = read_shard_job(folder_.string(), 2, "0/2");
    record_refusal(job, "a limit this node cannot hold");
    EXPECT_NE(read(job.data_dir / kRefusedFile).find(": a limit this node cannot hold\n"),
              std::string::npos);
    record_shard_done(job, "2 runs made");
    EXPECT_EQ(read(job.data_dir / "done"), "2 runs made\n");
}

TEST_F(ShardJobTest, ASettingsFileChangedSinceSubmissionIsRefused) {
    const auto settings = root_.path() / "settings.yaml";
    write(settings, "data_dir: a\n");
    const nlohmann::json manifest = {{"config", settings.string()},
                                     {"config_digest", settings_digest(settings.string())}};
    EXPECT_EQ(submitted_settings_file(manifest), settings.string());
    write(settings, "data_dir: b\n");
    EXPECT_THROW(submitted_settings_file(manifest), InputError);
    EXPECT_EQ(submitted_settings_file(nlohmann::json::object()), "");
}

}  // namespace
}  // namespace sbx::cluster
