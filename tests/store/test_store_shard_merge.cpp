// Merging a Slurm worker's shard store into the host's session on real SQLite files: each
// run once however often a shard is merged, and a shard whose task died before making its
// tables merges nothing instead of stopping the matrix.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cluster/shard_merge.hpp"
#include "command.hpp"
#include "store/store.hpp"

namespace {

using sbx::store::Store;

class ShardMerge : public ::testing::Test {
  protected:
    void SetUp() override { dir_ = sbx::test::make_temp_dir("sbx-merge-"); }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    std::filesystem::path path(const std::string &name) const {
        return std::filesystem::path(dir_) / name;
    }
    static int64_t runs(Store &store) {
        sbx::store::Statement query(store.connection().get(), "SELECT count(*) FROM runs");
        query.step();
        return query.column_int(0);
    }
    std::string dir_;
};

TEST_F(ShardMerge, EachRunCountsOnceHoweverOftenItsShardIsMerged) {
    {
        Store shard(path("shard/metrics.db"));
        const auto session = shard.begin_session("worker", "s.yaml", 1);
        const auto preset = shard.preset_id("normal", {{"SCENARIO_NAME", "normal"}});
        for (int repetition = 0; repetition < 3; ++repetition) {
            sbx::store::RunRecord run;
            run.session_id = session;
            run.workflow = "w";
            run.preset_id = preset;
            run.flag = "on";
            run.repetition = repetition;
            run.passed = repetition != 1;
            shard.record_run(run);
        }
    }
    Store host(path("host/metrics.db"));
    const auto session = host.begin_session("run-scenarios w", "s.yaml", 1);
    const auto first = sbx::cluster::merge_shard(host, session, path("shard/metrics.db"));
    EXPECT_EQ(first.merged, 3);
    EXPECT_EQ(first.passed, 2);
    const auto again = sbx::cluster::merge_shard(host, session, path("shard/metrics.db"));
    EXPECT_EQ(again.merged, 0);
    EXPECT_EQ(again.skipped, 3);
    EXPECT_EQ(runs(host), 3);
}

TEST_F(ShardMerge, AStoreWithoutTablesMergesNothingAndAMissingOneToo) {
    std::filesystem::create_directories(path("dead"));
    std::ofstream(path("dead/metrics.db")).close();  // the file SQLite creates, still empty
    Store host(path("host/metrics.db"));
    const auto session = host.begin_session("run-scenarios w", "s.yaml", 1);
    const auto count = sbx::cluster::merge_shard(host, session, path("dead/metrics.db"));
    EXPECT_EQ(count.merged, 0);
    EXPECT_EQ(count.skipped, 0);
    EXPECT_EQ(sbx::cluster::merge_shard(host, session, path("never/metrics.db")).merged, 0);
    EXPECT_EQ(runs(host), 0);
}

}  // namespace
