// Which file a RUN argument stands for, and the messages for arguments that are none.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "command.hpp"
#include "ranking/source.hpp"
#include "store/store.hpp"
#include "util/errors.hpp"

namespace {

namespace fs = std::filesystem;
using sbx::ranking::resolve_source;
using sbx::ranking::resolve_sources;
using sbx::ranking::SourceKind;

class SourceTest : public ::testing::Test {
  protected:
    void SetUp() override { dir_ = sbx::test::make_temp_dir("sbx-ranking-"); }
    void TearDown() override { fs::remove_all(dir_); }
    std::string write(const std::string &name, const std::string &text) const {
        const fs::path path = fs::path(dir_) / name;
        fs::create_directories(path.parent_path());
        std::ofstream(path) << text;
        return path.string();
    }
    std::string dir_;
};

// The InputError message of `work`, or a failure when it does not throw one.
template <class Work>
std::string input_error(Work work) {
    try {
        work();
    } catch (const sbx::InputError &e) {
        return e.what();
    }
    ADD_FAILURE() << "no InputError";
    return "";
}

TEST_F(SourceTest, ADirectoryIsItsMetricsDbWhenThereIsOneElseItsHistory) {
    write("run/roi_history.json", "{}");
    auto source = resolve_source(dir_ + "/run");
    EXPECT_EQ(source.kind, SourceKind::roi_history);
    EXPECT_EQ(source.path, fs::path(dir_) / "run" / "roi_history.json");
    EXPECT_EQ(source.argument, dir_ + "/run");

    { sbx::store::Store store(fs::path(dir_) / "run" / "metrics.db"); }
    source = resolve_source(dir_ + "/run");
    EXPECT_EQ(source.kind, SourceKind::metrics_db);
    EXPECT_EQ(source.path, fs::path(dir_) / "run" / "metrics.db");
}

TEST_F(SourceTest, AFileIsADatabaseByItsSqliteHeaderWhateverItsName) {
    { sbx::store::Store store(fs::path(dir_) / "copy.bin"); }
    EXPECT_EQ(resolve_source(dir_ + "/copy.bin").kind, SourceKind::metrics_db);
    EXPECT_EQ(resolve_source(write("history-2024.json", "{}")).kind, SourceKind::roi_history);
    // Too short for the header: read as JSON, whose parser then names the problem.
    EXPECT_EQ(resolve_source(write("tiny", "SQLite")).kind, SourceKind::roi_history);
}

TEST_F(SourceTest, AnythingElseNamesTheArgumentAndWhatToPass) {
    fs::create_directories(dir_ + "/empty");
    const auto empty = input_error([&] { resolve_source(dir_ + "/empty"); });
    EXPECT_NE(empty.find("RUN '" + dir_ +
                         "/empty' is a directory without metrics.db or "
                         "roi_history.json; pass a data dir"),
              std::string::npos)
        << empty;
    const auto missing = input_error([&] { resolve_source(dir_ + "/nope"); });
    EXPECT_NE(missing.find("RUN '" + dir_ +
                           "/nope' does not exist; pass a data dir written by "
                           "sandbox-runner (its --data-dir), a roi_history.json or a metrics.db"),
              std::string::npos)
        << missing;
    EXPECT_NE(input_error([] { resolve_source("/dev/null"); }).find("not a regular file"),
              std::string::npos);
    EXPECT_NE(input_error([] { resolve_source(""); }).find("does not exist"), std::string::npos);
    EXPECT_NE(input_error([] { resolve_sources({}); }).find("no RUN given; pass a data dir"),
              std::string::npos);
}

TEST_F(SourceTest, ResolvesEveryArgumentInOrder) {
    write("c/roi_history.json", "{}");
    const auto sources =
        resolve_sources({write("a.json", "{}"), write("b/roi_history.json", "{}"), dir_ + "/c"});
    ASSERT_EQ(sources.size(), 3u);
    EXPECT_EQ(sources[0].path, fs::path(dir_) / "a.json");
    EXPECT_EQ(sources[2].path, fs::path(dir_) / "c" / "roi_history.json");
}

TEST_F(SourceTest, AFileNamedTwiceIsReadOnce) {
    write("b/roi_history.json", "{}");
    const auto sources =
        resolve_sources({dir_ + "/b", dir_ + "/b/roi_history.json", dir_ + "/b/../b/"});
    ASSERT_EQ(sources.size(), 1u);
    EXPECT_EQ(sources[0].argument, dir_ + "/b");
}

}  // namespace
