// How a step is judged and how its templates are filled: the rules every run applies.
#include <gtest/gtest.h>

#include "engine/template.hpp"
#include "engine/workflow_runner.hpp"
#include "util/errors.hpp"

namespace {

using nlohmann::json;
using sbx::engine::expand_template;
using sbx::engine::meets_expectation;

TEST(Expectation, DefaultIsStatusOkAndExitZero) {
    const sbx::config::Expectation expect;
    std::string reason;
    EXPECT_TRUE(meets_expectation(expect, {{"status", "OK"}, {"exit_code", 0}}, reason));
    EXPECT_FALSE(meets_expectation(expect, {{"status", "RE"}, {"exit_code", 3}}, reason));
    EXPECT_EQ(reason, "status RE, expected OK");
    EXPECT_FALSE(meets_expectation(
        expect, {{"status", "XX"}, {"error", "cannot execute ./missing: No such file"}}, reason));
    EXPECT_NE(reason.find("cannot execute ./missing"), std::string::npos) << reason;
}

TEST(Expectation, ExitCodeAndOutput) {
    sbx::config::Expectation expect;
    expect.status = "RE";
    expect.exit_code = 3;
    expect.stdout_contains = "bad record";
    std::string reason;
    EXPECT_TRUE(meets_expectation(
        expect, {{"status", "RE"}, {"exit_code", 3}, {"stdout", "a bad record!"}}, reason));
    EXPECT_FALSE(meets_expectation(
        expect, {{"status", "RE"}, {"exit_code", 4}, {"stdout", "a bad record!"}}, reason));
    EXPECT_EQ(reason, "exit code 4, expected 3");
    EXPECT_FALSE(
        meets_expectation(expect, {{"status", "RE"}, {"exit_code", 3}, {"stdout", ""}}, reason));
    EXPECT_EQ(reason, "stdout lacks 'bad record'");
    expect.exit_code.reset();  // `exit_code: any`
    EXPECT_TRUE(meets_expectation(
        expect, {{"status", "RE"}, {"exit_code", 99}, {"stdout", "bad record"}}, reason));
}

TEST(Templates, StringsAsTheyAreEverythingElseAsJson) {
    const json inputs = {{"name", "Ada"}, {"record", {{"id", 1}}}, {"n", 3}, {"ok", true}};
    EXPECT_EQ(expand_template("put {{input.name}}", inputs), "put Ada");
    EXPECT_EQ(expand_template("{{input.record}}", inputs), R"({"id":1})");
    EXPECT_EQ(expand_template("{{input.n}}x{{input.ok}}", inputs), "3xtrue");
    EXPECT_EQ(expand_template("no templates {here}", inputs), "no templates {here}");
    EXPECT_THROW(expand_template("{{input.missing}}", inputs), sbx::InputError);
}

}  // namespace

namespace {

TEST(ExecutorResult, MalformedResultsAreNamedNotTypeErrors) {
    using sbx::engine::check_executor_result;
    EXPECT_NO_THROW(check_executor_result({{"status", "OK"}, {"exit_code", 0}}, "x"));
    EXPECT_THROW(check_executor_result(json::array(), "x"), sbx::EnvironmentError);
    EXPECT_THROW(check_executor_result({{"status", 0}}, "x"), sbx::EnvironmentError);
    EXPECT_THROW(check_executor_result({{"status", "FINE"}}, "x"), sbx::EnvironmentError);
    try {
        check_executor_result({{"status", "OK"}, {"exit_code", "zero"}}, "dockr");
        FAIL();
    } catch (const sbx::EnvironmentError &e) {
        EXPECT_NE(std::string(e.what()).find("executor 'dockr'"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("'exit_code' must be a number"), std::string::npos);
    }
}

}  // namespace
