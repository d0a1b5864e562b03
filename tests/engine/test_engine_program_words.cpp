// The program's own words: read from a real compiled program's read-only data and from a
// script's literals, a workflow's programs chosen the way a user writes steps (a script
// under an interpreter gives the script's words), templates skipped, each word once.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine/program_words.hpp"

namespace {

namespace fs = std::filesystem;

bool has(const std::vector<std::string> &words, const std::string &word) {
    return std::find(words.begin(), words.end(), word) != words.end();
}

std::ptrdiff_t where(const std::vector<std::string> &words, const std::string &word) {
    return std::find(words.begin(), words.end(), word) - words.begin();
}

class ProgramWords : public testing::Test {
  protected:
    void SetUp() override {
        const char *tmp = std::getenv("TMPDIR");
        dir_ =
            fs::path(tmp != nullptr ? tmp : "/tmp") /
            ("program-words-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    std::string script(const std::string &text) {
        const fs::path path = dir_ / "app.py";
        std::ofstream(path) << text;
        return path.string();
    }

    static sbx::config::Workflow workflow(std::vector<std::vector<std::string>> runs) {
        sbx::config::Workflow w;
        for (auto &run : runs) {
            sbx::config::Step step;
            step.run = std::move(run);
            w.steps.push_back(step);
        }
        return w;
    }

    fs::path dir_;
};

TEST_F(ProgramWords, AProgramsComparedCodesComeTogetherWithTheirTails) {
    const auto words = sbx::engine::file_words(SBX_WORDS_PROGRAM);
    for (const char *word : {"post", "courier", "drone", "debug", "missing_days", "days", "ok"}) {
        EXPECT_TRUE(has(words, word)) << word;
    }
    // A literal with spaces is a message, not a value the program compares.
    EXPECT_FALSE(has(words, "refused: unknown method, try post or courier"));
    // The literals of one comparison chain sit together in the file.
    EXPECT_LE(std::abs(where(words, "courier") - where(words, "drone")), 3);
    EXPECT_EQ(std::count(words.begin(), words.end(), "days"), 1) << "each word once";
}

TEST_F(ProgramWords, AScriptGivesItsLiteralsAndNotItsInterpretersWords) {
    const std::string app = script(
        "import sys\n"
        "# a comment's quote ' does not swallow the lines below\n"
        "if sys.argv[1] == 'drone': raise SystemExit(\"debug_mode\")\n"
        "print(`legacy`, \"two words\")\n");
    const auto words = sbx::engine::program_words(workflow({{"python3", app, "{{input.x}}"}}));
    EXPECT_TRUE(has(words, "drone"));
    EXPECT_TRUE(has(words, "debug_mode"));
    EXPECT_TRUE(has(words, "legacy"));
    EXPECT_FALSE(has(words, "two words"));
    EXPECT_LT(words.size(), 10U) << "python3's own strings are not the program's";
}

TEST_F(ProgramWords, EveryStepsProgramCountsOnceAndTheListIsBounded) {
    const std::string app = script("x = 'drone'\ny = 'zeppelin'\n");
    const auto both = sbx::engine::program_words(
        workflow({{SBX_WORDS_PROGRAM, "--flag"}, {"python3", app}, {"{{input.tool}}"}}));
    EXPECT_TRUE(has(both, "courier"));
    EXPECT_TRUE(has(both, "zeppelin"));
    EXPECT_EQ(std::count(both.begin(), both.end(), "drone"), 1);
    EXPECT_LT(where(both, "courier"), where(both, "zeppelin")) << "the first step first";
    const auto few = sbx::engine::program_words(workflow({{SBX_WORDS_PROGRAM}}), 3);
    EXPECT_EQ(few.size(), 3U);
    EXPECT_TRUE(sbx::engine::program_words(workflow({{"/no/such/program"}})).empty());
}

}  // namespace
