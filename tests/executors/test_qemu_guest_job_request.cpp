// The qemu guest agent's request reader (plugins/executors/qemu/guest/job_request), compiled
// in as the agent compiles it: the layout the host's job_exchange.cpp writes, bytes kept
// exactly, and every cut or overrun refused rather than read past.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <string>

#include "job_request.hpp"

namespace {

using sbx::guest::parse_job_request;

std::string section(const std::string &name, const std::string &content) {
    return name + " " + std::to_string(content.size()) + "\n" + content;
}

std::string request(const std::string &sections) {
    return "request " + std::to_string(sections.size()) + "\n" + sections;
}

// argv as the host writes it: NUL-separated, each item NUL-ended.
std::string argv_text() {
    return {"/bin/sh\0-c\0printf '%s' \"$X\"\0", 28};
}

TEST(GuestJobRequest, SectionsAreReadExactlyAndItsSizeIsWhereTheResultGoes) {
    const std::string stdin_text = std::string("line\n\0stdin 3\nraw\xff", 18);
    const std::string text = request(
        section("argv", argv_text()) + section("env", std::string("X=1\0Y=a b\0", 10)) +
        section("limits", "timeout_ms 5000\ncpu_cores 0.5\n") + section("stdin", stdin_text));
    const auto parsed = parse_job_request(text);
    ASSERT_TRUE(parsed);
    EXPECT_EQ(parsed->argv, (std::vector<std::string>{"/bin/sh", "-c", "printf '%s' \"$X\""}));
    EXPECT_EQ(parsed->env, (std::vector<std::string>{"X=1", "Y=a b"}));
    EXPECT_EQ(parsed->limit("timeout_ms"), 5000U);
    EXPECT_EQ(parsed->limit("memory_bytes"), 0U) << "a missing limit reads as 0";
    EXPECT_DOUBLE_EQ(parsed->decimal_limit("cpu_cores"), 0.5);
    EXPECT_EQ(parsed->stdin_text, stdin_text);
}

TEST(GuestJobRequest, CutOrOverrunRequestsAreRefused) {
    const std::string whole = request(section("argv", argv_text()) + section("stdin", "abc"));
    ASSERT_TRUE(parse_job_request(whole));
    EXPECT_FALSE(parse_job_request(whole.substr(0, whole.size() - 1))) << "cut short";
    EXPECT_FALSE(parse_job_request(whole + "x")) << "more than it declares";
    EXPECT_FALSE(parse_job_request(request("argv 99\n/bin/true"))) << "a section overruns";
    EXPECT_FALSE(parse_job_request(request("argv x\n"))) << "a size that is no number";
    EXPECT_FALSE(parse_job_request(section("argv", argv_text()))) << "no request line";
    EXPECT_FALSE(parse_job_request(request(section("stdin", "abc")))) << "no argv";
    EXPECT_FALSE(parse_job_request(request(section("argv", "")))) << "an empty argv";
    EXPECT_FALSE(parse_job_request(""));
}

TEST(GuestJobRequest, TheFileIsReadFromItsStartWhateverFollowsTheRequest) {
    // The agent keeps the job file open from run to run and writes each result after the
    // request: reading starts at offset 0 and stops at the declared size.
    const std::string text = request(section("argv", argv_text()) + section("stdin", "in"));
    const int file = ::memfd_create("job", MFD_CLOEXEC);
    ASSERT_GE(file, 0);
    const std::string content = text + "wait_status 0\n\nold result";
    ASSERT_EQ(::write(file, content.data(), content.size()), static_cast<ssize_t>(content.size()));
    const auto parsed = sbx::guest::read_job_request(file);
    ::close(file);
    ASSERT_TRUE(parsed);
    EXPECT_EQ(parsed->stdin_text, "in");
    EXPECT_EQ(parsed->bytes, text.size());
}

}  // namespace
