// Crash signatures: the words of an error that tell one crash from another, whatever the
// addresses, pids and byte counts of a run; none for a run that did not crash or hang.
#include <gtest/gtest.h>

#include <string>

#include "engine/crash_signature.hpp"

namespace {

using sbx::engine::crash_signature;
using sbx::engine::error_words;

sbx::store::RecordedRun crashed(const std::string &stderr_text, int signal = 6) {
    sbx::store::RecordedRun run;
    run.passed = false;
    run.outcome = "crashed";
    run.failed_step = "parse";
    run.steps = {{"prepare", "OK", true, 0, "", 0},
                 {"parse", "SG", false, signal, stderr_text, 128 + signal}};
    return run;
}

TEST(CrashSignature, ASanitizersSummaryLineIsTheCrashWhereverMemoryWas) {
    const std::string first =
        "==4242==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000011\n"
        "    #0 0x55d1c0 in parse_name /src/app.c:12\n"
        "SUMMARY: AddressSanitizer: heap-buffer-overflow /src/app.c:12 in parse_name\n";
    const std::string second =
        "==777==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x7f00aa000031\n"
        "    #0 0x41a2b0 in parse_name /src/app.c:12\n"
        "SUMMARY: AddressSanitizer: heap-buffer-overflow /src/app.c:12 in parse_name\n";
    EXPECT_EQ(error_words(first),
              "SUMMARY: AddressSanitizer: heap-buffer-overflow /src/app.c:12 in parse_name");
    EXPECT_EQ(crash_signature(crashed(first))->key, crash_signature(crashed(second))->key);
    const std::string elsewhere =
        "SUMMARY: AddressSanitizer: heap-buffer-overflow /src/app.c:40 in parse_tags\n";
    EXPECT_NE(crash_signature(crashed(first))->key, crash_signature(crashed(elsewhere))->key);
}

TEST(CrashSignature, APythonTracebackIsItsExceptionAndInnermostFrame) {
    const std::string traceback =
        "Traceback (most recent call last):\n"
        "  File \"/app/main.py\", line 30, in <module>\n"
        "  File \"/app/orders.py\", line 12, in total\n"
        "ZeroDivisionError: division by zero\n";
    EXPECT_EQ(error_words(traceback),
              "  File \"/app/orders.py\", line 12, in total | ZeroDivisionError");
}

TEST(CrashSignature, OtherwiseTheFirstTwoLinesWithoutTheirLongNumbers) {
    EXPECT_EQ(error_words("\nplanted bug 12 at byte 123456\nsecond line 0xdeadbeef\nthird\n"),
              "planted bug 12 at byte # | second line 0x#");
    EXPECT_EQ(error_words(""), "");
    // A message that quotes the input is one error whatever the input.
    EXPECT_EQ(error_words("refused: unknown method 'drone'\n"),
              error_words("refused: unknown method 'zeppelin'\n"));
    EXPECT_EQ(error_words("bad key \"x\" here\n"), "bad key \"…\" here");
}

TEST(CrashSignature, TheSameWordsFromAnotherStepOrSignalAreAnotherCrash) {
    const auto abort = crash_signature(crashed("boom\n", 6));
    const auto segv = crash_signature(crashed("boom\n", 11));
    ASSERT_TRUE(abort && segv);
    EXPECT_NE(abort->key, segv->key);
    EXPECT_EQ(abort->summary, "step 'parse': signal 6; boom");
    auto other_step = crashed("boom\n", 6);
    other_step.failed_step = "prepare";
    other_step.steps[0] = {"prepare", "SG", false, 6, "boom\n", 134};
    EXPECT_NE(crash_signature(other_step)->key, abort->key);
}

TEST(CrashSignature, CrashesHangsAndOtherFailuresHaveOneCleanRefusalsNone) {
    auto refused = crashed("refused: not an order\n");
    refused.outcome = "rejected";
    EXPECT_FALSE(crash_signature(refused));
    auto passed = crashed("");
    passed.passed = true;
    EXPECT_FALSE(crash_signature(passed));
    auto hung = crashed("", 0);
    hung.outcome = "hung";
    hung.steps[1].status = "TO";
    EXPECT_EQ(crash_signature(hung)->summary, "step 'parse': TO");
    // An uncaught exception's exit 1 is the program's failure too, told by its exit code.
    auto raised = crashed(
        "Traceback (most recent call last):\n  File \"/app/a.py\", line 7, in f\n"
        "ZeroDivisionError: division by zero\n",
        0);
    raised.outcome = "failed";
    raised.steps[1].status = "RE";
    raised.steps[1].exit_code = 1;
    const auto failed = crash_signature(raised);
    ASSERT_TRUE(failed);
    EXPECT_EQ(failed->summary,
              "step 'parse': exit 1;   File \"/app/a.py\", line 7, in f | ZeroDivisionError");
    raised.steps[1].exit_code = 3;
    EXPECT_NE(crash_signature(raised)->key, failed->key);
}

}  // namespace
