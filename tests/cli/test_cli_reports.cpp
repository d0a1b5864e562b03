// `report` and `run-scenarios --report`: JUnit XML that validates against the schema CI
// systems read (tests/reports/fixtures/junit.xsd) with a failure per failing scenario whose
// replay line replays the failure, Markdown for a pull request, a self-contained HTML page,
// JSON; and clear errors that create nothing.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "cli_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class Reports : public sbx::test::CliTest {
  protected:
    void SetUp() override {
        CliTest::SetUp();
        write_settings(R"(
extends: default
workflows:
  - name: echo
    steps:
      - name: check
        run: [/bin/sh, -c, 'case "$1" in *"<"*) exit 1;; esac', sh, "{{input.text}}"]
        inputs:
          text: {type: string, example: hello}
)");
    }
    static std::string slurp(const std::string &path) {
        std::ifstream in(path);
        return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    }
};

TEST_F(Reports, RunScenariosWritesEachFormatAsItFinishes) {
    const auto result =
        runner({"run-scenarios", "echo", "--seed", "3", "--report", "junit:" + dir_ + "/r.xml",
                "--report", "markdown:" + dir_ + "/r.md", "--report", "html:" + dir_ + "/r.html"});
    ASSERT_EQ(result.exit_code, 0) << result.err;

    // JUnit: valid against the schema, one case per scenario, the failure with its replay.
    const auto valid = sbx::test::run_command({"/usr/bin/xmllint", "--noout", "--schema",
                                               SBX_SOURCE_DIR "/tests/reports/fixtures/junit.xsd",
                                               dir_ + "/r.xml"});
    ASSERT_EQ(valid.exit_code, 0) << "xmllint (Debian libxml2-utils): " << valid.err;
    const std::string junit = slurp(dir_ + "/r.xml");
    const auto scenarios = query("SELECT COUNT(*) FROM scenario_scores")[0][0];
    std::smatch match;
    ASSERT_TRUE(std::regex_search(
        junit, match, std::regex(R"re(<testsuite name="echo" tests="(\d+)" failures="(\d+)")re")))
        << junit;
    EXPECT_EQ(match[1].str(), scenarios);
    EXPECT_EQ(match[2].str(), query("SELECT COUNT(*) FROM scenario_scores WHERE failed = 1 AND "
                                    "not_applicable IS NULL")[0][0]);
    ASSERT_TRUE(std::regex_search(
        junit, match,
        std::regex(
            R"re(<testcase name="hostile_input"[^>]*>\s*<failure message="([^"]+)"[^>]*>[^<]*replay: sandbox-runner --data-dir (\S+) replay (\d+))re")))
        << junit;
    EXPECT_EQ(match[2].str(), dir_ + "/data");
    // The replay line replays: the same run fails again the same way (exit 0: same outcome).
    const auto replayed = runner({"replay", match[3].str()});
    EXPECT_EQ(replayed.exit_code, 0) << replayed.out << replayed.err;

    const std::string markdown = slurp(dir_ + "/r.md");
    EXPECT_NE(markdown.find("| hostile\\_input **(worst)** |"), std::string::npos) << markdown;
    EXPECT_NE(markdown.find("<details><summary>Failures</summary>"), std::string::npos);
    EXPECT_NE(markdown.find("replay: `sandbox-runner --data-dir"), std::string::npos);

    // HTML: the plots inline, nothing loaded, nothing run.
    const std::string html = slurp(dir_ + "/r.html");
    EXPECT_NE(html.find("<svg"), std::string::npos);
    EXPECT_EQ(html.find("<script"), std::string::npos);
    EXPECT_EQ(html.find("src="), std::string::npos);
    EXPECT_EQ(html.find("<link"), std::string::npos);
    EXPECT_FALSE(std::regex_search(html, std::regex(R"re((href|src)="(https?:)?//)re")));
}

TEST_F(Reports, ReportReadsAnySessionInEveryFormat) {
    ASSERT_EQ(runner({"run-scenarios", "echo", "--seed", "3"}).exit_code, 0);
    const auto as_json = runner({"report", "1", "--format", "json"});
    ASSERT_EQ(as_json.exit_code, 0) << as_json.err;
    const auto report = json::parse(as_json.out);
    EXPECT_EQ(report["session"], 1);
    EXPECT_EQ(report["workflows"][0]["worst_scenario"], "hostile_input");
    EXPECT_EQ(report["workflows"][0]["scenarios"].size(),
              std::stoul(query("SELECT COUNT(*) FROM scenario_scores")[0][0]));
    // The latest session by default; the same text on stdout and in --out.
    const auto markdown = runner({"report"});
    ASSERT_EQ(markdown.exit_code, 0);
    ASSERT_EQ(runner({"report", "--out", dir_ + "/out.md"}).exit_code, 0);
    EXPECT_EQ(slurp(dir_ + "/out.md"), markdown.out);
    EXPECT_EQ(runner({"report", "--format", "junit"}).out.rfind("<?xml", 0), 0U);
}

TEST_F(Reports, BadRequestsAreExitTwoAndCreateNothing) {
    for (const auto &[args, says] : std::vector<std::pair<std::vector<std::string>, std::string>>{
             {{"report"}, "nothing was recorded there yet"},
             {{"report", "--format", "pdf"}, "format 'pdf' is unknown"},
             {{"report", "x1"}, "is not a session id"},
             {{"report", "--out", dir_ + "/missing/r.md"}, "does not exist"}}) {
        const auto result = runner(args);
        EXPECT_EQ(result.exit_code, 2) << args.back();
        EXPECT_NE(result.err.find(says), std::string::npos) << result.err;
    }
    EXPECT_FALSE(fs::exists(dir_ + "/data"));
    ASSERT_EQ(runner({"run-scenarios", "echo", "--seed", "3"}).exit_code, 0);
    const auto missing = runner({"report", "99"});
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("session 99 is not in"), std::string::npos) << missing.err;
    const auto bad_target = runner({"run-scenarios", "echo", "--report", "xml:" + dir_ + "/r"});
    EXPECT_EQ(bad_target.exit_code, 2);
    EXPECT_NE(bad_target.err.find("use junit, markdown, html or json"), std::string::npos);
}

}  // namespace
