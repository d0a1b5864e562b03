// How a step is judged and how its templates are filled: the rules every run applies.
#include <gtest/gtest.h>

#include <limits>

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
    expect.status = sbx::RunStatus::runtime_error;
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
    // A slot the set lacks, or holds null, is what an unset variable gives.
    EXPECT_EQ(expand_template("[{{input.missing}}]", inputs), "[]");
    EXPECT_EQ(expand_template("[{{input.none}}]", json{{"none", nullptr}}), "[]");
}

TEST(Templates, ARunItemGivesNoneOneOrSeveralArgvItems) {
    const json inputs = {{"name", "Ada"},
                         {"files", {"a b", 3, true, {{"k", 1}}}},
                         {"doc", {1, 2}},
                         {"empty", json::array()},
                         {"none", nullptr}};
    const auto is_list = [](const std::string &name) { return name == "files" || name == "empty"; };
    using Items = std::vector<std::string>;
    EXPECT_EQ(sbx::engine::expand_run_item("{{input.name}}", inputs, is_list), Items{"Ada"});
    // A list slot spreads: text as it is, other items as compact JSON.
    EXPECT_EQ(sbx::engine::expand_run_item("{{input.files}}", inputs, is_list),
              (Items{"a b", "3", "true", R"({"k":1})"}));
    EXPECT_EQ(sbx::engine::expand_run_item("{{input.empty}}", inputs, is_list), Items{});
    // An array in a slot that is not a list (json) stays one item of JSON text.
    EXPECT_EQ(sbx::engine::expand_run_item("{{input.doc}}", inputs, is_list), Items{"[1,2]"});
    // Absent or null: no item; inside a longer item, "".
    EXPECT_EQ(sbx::engine::expand_run_item("{{input.missing}}", inputs, is_list), Items{});
    EXPECT_EQ(sbx::engine::expand_run_item("{{input.none}}", inputs, is_list), Items{});
    EXPECT_EQ(sbx::engine::expand_run_item("--in={{input.missing}}", inputs, is_list),
              Items{"--in="});
    EXPECT_EQ(sbx::engine::expand_run_item("{{input.files}}!", inputs, is_list),
              Items{R"(["a b",3,true,{"k":1}]!)"});
    EXPECT_EQ(sbx::engine::expand_run_item("{{input.name}}{{input.name}}", inputs, is_list),
              Items{"AdaAda"});
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

// Found with tests/fuzz/fuzz_plugin_answers (UBSan): an exit code of 1e300 passed the check, then
// was read as an int (undefined behaviour; UBSan's float-cast-overflow).
TEST(ExecutorResult, ExitCodeAndSignalAreInts) {
    using sbx::engine::check_executor_result;
    for (const json &code : {json(3), json(-1), json(3.0), json(2147483647)}) {
        EXPECT_NO_THROW(check_executor_result({{"status", "RE"}, {"exit_code", code}}, "x"))
            << code;
    }
    for (const json &code : {json(1e300), json(-1e300), json(2147483648u), json(-2147483649LL),
                             json(2.5), json(std::numeric_limits<double>::quiet_NaN())}) {
        EXPECT_THROW(check_executor_result({{"status", "RE"}, {"exit_code", code}}, "x"),
                     sbx::EnvironmentError)
            << code;
        EXPECT_THROW(check_executor_result({{"status", "SG"}, {"signal", code}}, "x"),
                     sbx::EnvironmentError)
            << code;
    }
}

}  // namespace
