// record_run from many threads at once, on a real SQLite file: the group commit writes every
// run exactly once, hands each caller its own run's id, and a run that cannot be written
// fails alone while the runs committed with it are kept. A written run is committed by the
// store's committer without any further call, and on the store's end. Runs queued with
// record_run_later are written by the committer: each ticket gives its run's id, or the
// error that kept that run alone out.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <functional>
#include <set>
#include <thread>
#include <vector>

#include "command.hpp"
#include "store/store.hpp"
#include "wait.hpp"

namespace {

using sbx::store::RunRecord;
using sbx::store::Statement;
using sbx::store::Store;

constexpr int kThreads = 8;
constexpr int kRunsPerThread = 150;

class GroupCommitTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = sbx::test::make_temp_dir("sbx-group-commit-");
        store_.emplace(std::filesystem::path(dir_) / "metrics.db");
        session_ = store_->begin_session("run", "test.yaml", std::nullopt);
        preset_ = store_->preset_id("normal", {{"SCENARIO_NAME", "normal"}});
    }
    void TearDown() override {
        store_.reset();
        std::filesystem::remove_all(dir_);
    }

    RunRecord run(int thread, int repetition, int64_t preset) const {
        RunRecord record;
        record.session_id = session_;
        record.workflow = "w" + std::to_string(thread);
        record.preset_id = preset;
        record.repetition = repetition;
        record.passed = true;
        record.inputs = {{"thread", thread}, {"repetition", repetition}};
        record.started_at = sbx::store::utc_now();
        record.steps = {{"s", true, {{"status", "OK"}, {"exit_code", 0}}, "", "accepted"}};
        record.metrics = {{"repetition", repetition}};
        return record;
    }

    // Runs `work(thread)` on kThreads threads at once and waits for them all.
    static void on_threads(const std::function<void(int)> &work) {
        std::vector<std::thread> threads;
        threads.reserve(kThreads);
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back(work, t);
        }
        for (auto &thread : threads) {
            thread.join();
        }
    }

    int64_t count(const std::string &sql) {
        Statement query(store_->connection().get(), sql);
        query.step();
        return query.column_int(0);
    }

    std::string dir_;
    std::optional<Store> store_;
    int64_t session_ = 0;
    int64_t preset_ = 0;
};

TEST_F(GroupCommitTest, EveryRunIsWrittenOnceAndEachCallerGetsItsOwnId) {
    std::vector<std::vector<int64_t>> ids(kThreads);
    on_threads([&](int t) {
        for (int r = 0; r < kRunsPerThread; ++r) {
            ids[t].push_back(store_->record_run(run(t, r, preset_)));
        }
    });
    EXPECT_EQ(count("SELECT count(*) FROM runs"), kThreads * kRunsPerThread);
    EXPECT_EQ(count("SELECT count(*) FROM steps"), kThreads * kRunsPerThread);
    EXPECT_EQ(count("SELECT count(*) FROM metrics"), kThreads * kRunsPerThread);
    std::set<int64_t> seen;
    Statement row(store_->connection().get(),
                  "SELECT workflow, repetition, inputs FROM runs WHERE id = ?");
    for (int t = 0; t < kThreads; ++t) {
        for (int r = 0; r < kRunsPerThread; ++r) {
            const int64_t id = ids[t][static_cast<size_t>(r)];
            EXPECT_TRUE(seen.insert(id).second) << "id " << id << " handed out twice";
            row.bind(1, id);
            ASSERT_TRUE(row.step()) << "run id " << id << " is not in the database";
            EXPECT_EQ(row.column_text(0), "w" + std::to_string(t));
            EXPECT_EQ(row.column_int(1), r);
            EXPECT_EQ(nlohmann::json::parse(row.column_text(2)),
                      (nlohmann::json{{"thread", t}, {"repetition", r}}));
            row.reset();
        }
    }
}

TEST_F(GroupCommitTest, ARunThatCannotBeWrittenFailsAloneAndTheOthersAreKept) {
    const int64_t missing_preset = preset_ + 1000;  // a foreign key the database refuses
    std::atomic<int> refused{0};
    std::atomic<int> wrongly_accepted{0};
    on_threads([&](int t) {
        for (int r = 0; r < kRunsPerThread; ++r) {
            // Every third run of odd threads is bad, so batches mix good and bad runs.
            const bool bad = t % 2 == 1 && r % 3 == 0;
            try {
                store_->record_run(run(t, r, bad ? missing_preset : preset_));
                wrongly_accepted += bad ? 1 : 0;
            } catch (const std::exception &) {
                refused += 1;
                EXPECT_TRUE(bad) << "a good run (thread " << t << ", repetition " << r
                                 << ") failed with a bad one";
            }
        }
    });
    const int bad_runs = (kThreads / 2) * ((kRunsPerThread + 2) / 3);
    EXPECT_EQ(wrongly_accepted.load(), 0);
    EXPECT_EQ(refused.load(), bad_runs);
    EXPECT_EQ(count("SELECT count(*) FROM runs"), kThreads * kRunsPerThread - bad_runs);
    EXPECT_EQ(count("SELECT count(*) FROM steps"), kThreads * kRunsPerThread - bad_runs);
    EXPECT_EQ(
        count("SELECT count(*) FROM runs WHERE preset_id = " + std::to_string(missing_preset)), 0);
}

// Another connection (a reader such as `report` or the dashboard, or the next host after a
// SIGKILL) sees a written run once it is committed: the committer does it unasked.
TEST_F(GroupCommitTest, AWrittenRunIsCommittedWithoutAnotherCall) {
    const int64_t id = store_->record_run(run(0, 0, preset_));
    sbx::store::Connection reader((std::filesystem::path(dir_) / "metrics.db").string(),
                                  sbx::store::Connection::ReadOnly{});
    const auto committed = [&] {
        Statement query(reader.get(), "SELECT count(*) FROM runs WHERE id = ?");
        query.bind(1, id);
        return query.step() && query.column_int(0) == 1;
    };
    EXPECT_TRUE(sbx::test::wait_until(committed, std::chrono::seconds(10)))
        << "run " << id << " was written and never committed";
}

TEST_F(GroupCommitTest, TheStoresEndCommitsWhatItWrote) {
    for (int r = 0; r < 50; ++r) {
        (void)store_->record_run(run(0, r, preset_));
    }
    store_.reset();
    Store again(std::filesystem::path(dir_) / "metrics.db");
    Statement query(again.connection().get(), "SELECT count(*) FROM runs");
    ASSERT_TRUE(query.step());
    EXPECT_EQ(query.column_int(0), 50);
}

TEST_F(GroupCommitTest, QueuedRunsAreWrittenByTheCommitterAndEachTicketGivesItsRun) {
    std::vector<std::vector<uint64_t>> tickets(kThreads);
    on_threads([&](int t) {
        for (int r = 0; r < kRunsPerThread; ++r) {
            tickets[t].push_back(store_->record_run_later(run(t, r, preset_)));
        }
    });
    // Written and committed without another call: a reader of the file sees every run.
    sbx::store::Connection reader((std::filesystem::path(dir_) / "metrics.db").string(),
                                  sbx::store::Connection::ReadOnly{});
    const auto all_committed = [&] {
        Statement query(reader.get(), "SELECT count(*) FROM runs");
        return query.step() && query.column_int(0) == int64_t{kThreads} * kRunsPerThread;
    };
    EXPECT_TRUE(sbx::test::wait_until(all_committed, std::chrono::seconds(10)));
    std::set<int64_t> seen;
    Statement row(store_->connection().get(), "SELECT workflow, repetition FROM runs WHERE id = ?");
    for (int t = 0; t < kThreads; ++t) {
        for (int r = 0; r < kRunsPerThread; ++r) {
            const int64_t id = store_->written_id(tickets[t][static_cast<size_t>(r)]);
            EXPECT_TRUE(seen.insert(id).second) << "id " << id << " given for two tickets";
            row.bind(1, id);
            ASSERT_TRUE(row.step()) << "run id " << id << " is not in the database";
            EXPECT_EQ(row.column_text(0), "w" + std::to_string(t));
            EXPECT_EQ(row.column_int(1), r);
            row.reset();
        }
    }
    EXPECT_EQ(count("SELECT count(*) FROM steps"), kThreads * kRunsPerThread);
    EXPECT_THROW((void)store_->written_id(tickets[0][0]), std::logic_error)
        << "a ticket gives its id once";
}

TEST_F(GroupCommitTest, AQueuedRunThatCannotBeWrittenFailsAtItsTicketAlone) {
    const uint64_t good = store_->record_run_later(run(0, 0, preset_));
    const uint64_t bad = store_->record_run_later(run(0, 1, preset_ + 1000));  // no such preset
    const uint64_t after = store_->record_run_later(run(0, 2, preset_));
    EXPECT_GT(store_->written_id(good), 0);
    EXPECT_THROW((void)store_->written_id(bad), std::exception);
    EXPECT_GT(store_->written_id(after), 0);
    EXPECT_EQ(count("SELECT count(*) FROM runs"), 2);
    EXPECT_EQ(count("SELECT count(*) FROM metrics"), 2);
}

}  // namespace
