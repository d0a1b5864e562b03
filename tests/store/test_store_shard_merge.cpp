// Merging a Slurm worker's shard store into the host's session on real SQLite files: each
// run once however often a shard is merged, and a shard whose task died before making its
// tables merges nothing instead of stopping the matrix.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cluster/shard_merge.hpp"
#include "command.hpp"
#include "store/cleanup_counters.hpp"
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

// A run's cleanup counters count every copy of a concurrency spike and every try a sandbox
// fault discarded, more than its stored step results show: the worker's totals are merged,
// each once, however often the shard is merged and however it grew in between.
TEST_F(ShardMerge, TheWorkersCleanupCountersAreMergedOnceEach) {
    const auto record = [&](int repetition, double failures) {
        Store shard(path("shard/metrics.db"));
        sbx::store::RunRecord run;
        run.session_id = 1;
        run.workflow = "w";
        run.preset_id = shard.preset_id("spike", {{"SCENARIO_NAME", "spike"}});
        run.repetition = repetition;
        run.passed = true;
        run.cleanup_counters = {{"cleanup_failures", failures},
                                {"cleanup_duration_seconds_cleanup", 0.5 * failures}};
        shard.record_run(run);
    };
    {
        Store shard(path("shard/metrics.db"));
        shard.begin_session("worker", "s.yaml", 1);
    }
    record(0, 2);
    Store host(path("host/metrics.db"));
    const auto session = host.begin_session("run-scenarios w", "s.yaml", 1);
    const auto counters = [&] { return sbx::store::read_cleanup_counters(host); };
    sbx::cluster::merge_shard(host, session, path("shard/metrics.db"));
    EXPECT_EQ(counters()["cleanup_failures"].value, 2);
    sbx::cluster::merge_shard(host, session, path("shard/metrics.db"));
    EXPECT_EQ(counters()["cleanup_failures"].value, 2) << "merged twice, counted once";
    record(1, 3);
    sbx::cluster::merge_shard(host, session, path("shard/metrics.db"));
    EXPECT_EQ(counters()["cleanup_failures"].value, 5);
    EXPECT_EQ(counters()["cleanup_duration_seconds_cleanup"].value, 1.5) << "a gauge: the latest";
    EXPECT_EQ(runs(host), 2);
}

TEST_F(ShardMerge, AStoreWithoutTablesAnUnreadableOneAndAMissingOneMergeNothing) {
    std::filesystem::create_directories(path("dead"));
    std::ofstream(path("dead/metrics.db")).close();  // the file SQLite creates, still empty
    Store host(path("host/metrics.db"));
    const auto session = host.begin_session("run-scenarios w", "s.yaml", 1);
    const auto count = sbx::cluster::merge_shard(host, session, path("dead/metrics.db"));
    EXPECT_EQ(count.merged, 0);
    EXPECT_EQ(count.skipped, 0);
    EXPECT_EQ(sbx::cluster::merge_shard(host, session, path("never/metrics.db")).merged, 0);
    std::ofstream(path("dead/garbage.db")) << "not a database, as a lost node may leave one";
    EXPECT_EQ(sbx::cluster::merge_shard(host, session, path("dead/garbage.db")).merged, 0);
    EXPECT_EQ(runs(host), 0);
}

}  // namespace
