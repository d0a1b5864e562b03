// `report` and `run-scenarios --report`: JUnit XML that validates against the schema CI
// systems read (tests/reports/fixtures/junit.xsd) with a failure per failing scenario whose
// replay line replays the failure, Markdown for a pull request, a self-contained HTML page,
// JSON; and clear errors that create nothing.
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
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
    const auto valid = sbx::test::run_command(
        {"/usr/bin/xmllint", "--noout", "--schema",
         std::string(SBX_SOURCE_DIR) + "/tests/reports/fixtures/junit.xsd", dir_ + "/r.xml"});
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
            R"re(<testcase name="hostile_input"[^>]*>\s*<failure message="([^"]+)"[^>]*>[^<]*replay: sandbox-runner --config (&#39;[^&]*&#39;|\S+) --data-dir (&#39;[^&]*&#39;|\S+) replay (\d+))re")))
        << junit;
    // Shell-quoted when the path holds a space (a checkout under "/tmp/a b"), then escaped
    // for XML.
    const auto quoted = [](const std::string &path) {
        return path.find(' ') == std::string::npos ? path : "&#39;" + path + "&#39;";
    };
    EXPECT_EQ(match[2].str(), quoted(settings_));
    EXPECT_EQ(match[3].str(), quoted(dir_ + "/data"));
    // The replay line replays: the same run fails again the same way (exit 0: same outcome).
    const auto replayed = runner({"replay", match[4].str()});
    EXPECT_EQ(replayed.exit_code, 0) << replayed.out << replayed.err;

    const std::string markdown = slurp(dir_ + "/r.md");
    EXPECT_NE(markdown.find("| hostile\\_input **(worst)** |"), std::string::npos) << markdown;
    EXPECT_NE(markdown.find("<details><summary>Failures</summary>"), std::string::npos);
    EXPECT_NE(markdown.find("replay: `sandbox-runner --config "), std::string::npos);

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

// synergy-metrics (latest and EMA of each synergy metric, as the database says) and the
// --plot charts of synergy-metrics, simulate-temporal-trajectory and rank-scenarios: valid
// SVG files naming what they plot; nothing written when nothing is recorded.
TEST_F(Reports, SynergyMetricsAndPlotsDrawWhatWasRecorded) {
    write_settings(R"(
extends: default
presets: [{SCENARIO_NAME: calm}]
workflows:
  - name: a
    steps: [{run: [/bin/true]}]
  - name: b
    steps: [{run: [/bin/sh, -c, 'exit 1']}]
)");
    const auto empty = runner({"show-synergy", "--plot", dir_ + "/none.svg"});
    EXPECT_EQ(empty.exit_code, 0) << empty.err;
    EXPECT_FALSE(fs::exists(dir_ + "/none.svg"));
    EXPECT_FALSE(fs::exists(dir_ + "/data"));
    for (int i = 0; i < 3; ++i) {
        const auto simulation = runner({"run", "--all-workflows", "--seed", std::to_string(i)});
        ASSERT_EQ(simulation.exit_code, 0) << simulation.err;
    }
    const auto metrics =
        runner({"show-synergy", "--window", "2", "--json", "--plot", dir_ + "/synergy.svg"});
    ASSERT_EQ(metrics.exit_code, 0) << metrics.err;
    const auto parsed = json::parse(metrics.out);
    // The newest session's synergy_roi, and the EMA over the last two sessions' values.
    const auto values = query(
        "SELECT value FROM synergy WHERE name = 'synergy_roi' ORDER BY "
        "session_id");
    ASSERT_EQ(values.size(), 3U);
    const double latest = std::stod(values[2][0]);
    const double alpha = 2.0 / 3.0;
    const double ema = alpha * latest + (1 - alpha) * std::stod(values[1][0]);
    EXPECT_DOUBLE_EQ(parsed["metrics"]["synergy_roi"]["latest"].get<double>(), latest);
    EXPECT_NEAR(parsed["metrics"]["synergy_roi"]["ema"].get<double>(), ema, 1e-9);
    EXPECT_EQ(parsed["metrics"]["synergy_roi"]["points"], 3);

    write_settings(R"(
extends: default
workflows:
  - name: t
    steps: [{run: [/bin/true]}]
)");
    ASSERT_EQ(runner({"simulate-temporal-trajectory", "t", "--seed", "1", "--plot",
                      dir_ + "/trajectory.svg"})
                  .exit_code,
              0);
    ASSERT_EQ(runner({"rank-scenarios", dir_ + "/data", "--plot", dir_ + "/ranking.svg"}).exit_code,
              0);
    for (const auto &[file, names] : std::vector<std::pair<std::string, std::vector<std::string>>>{
             {"synergy.svg", {"synergy_roi"}},
             {"trajectory.svg", {"roi", "degradation", "resilience"}},
             // Workflows a and b both ran calm: a line each, never one line of both.
             {"ranking.svg", {"calm (a)", "calm (b)"}}}) {
        const auto valid =
            sbx::test::run_command({"/usr/bin/xmllint", "--noout", dir_ + "/" + file});
        EXPECT_EQ(valid.exit_code, 0) << file << ": " << valid.err;
        const std::string svg = slurp(dir_ + "/" + file);
        EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0U) << file;
        for (const auto &name : names) {
            EXPECT_NE(svg.find(name), std::string::npos) << file << " lacks " << name;
        }
    }
    const auto bad = runner({"show-synergy", "--plot", dir_ + "/missing/s.svg"});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("does not exist"), std::string::npos) << bad.err;
}

}  // namespace

namespace {

// The why of a failure travels: the failing run's exit code and its stderr line reach every
// format `report` writes, not only metrics.db.
TEST_F(Reports, TheStderrLineOfAFailingRunReachesEveryFormat) {
    write_settings(R"(
scenarios: [{name: normal}, {name: reset, preset: {MY_CASE: reset}}]
workflows:
  - name: fetch
    steps:
      - run: [/bin/sh, -c, 'if [ "$MY_CASE" = reset ]; then echo "curl: (56) Connection reset by peer" >&2; exit 56; fi']
)");
    ASSERT_EQ(runner({"run-scenarios", "fetch", "--seed", "1"}).exit_code, 0);
    const std::string why = "exit code 56; stderr: curl: (56) Connection reset by peer";
    for (const char *format : {"junit", "markdown", "html", "json"}) {
        SCOPED_TRACE(format);
        const auto report = runner({"report", "--format", format});
        EXPECT_EQ(report.exit_code, 0) << report.err;
        EXPECT_NE(report.out.find(why), std::string::npos) << report.out;
    }
}

// The `replay:` text after `marker` in `text` up to the end of its line.
std::string printed_replay(const std::string &text, const std::string &marker) {
    const auto at = text.find(marker);
    if (at == std::string::npos) {
        return "";
    }
    const auto start = at + marker.size();
    return text.substr(start, text.find('\n', start) - start);
}

// A replay line is shared to be pasted: it must work from any folder, though the matrix ran
// with a relative --config and --data-dir.
TEST_F(Reports, PrintedReplayLinesWorkFromAnotherFolder) {
    write_settings(R"(
scenarios: [{name: normal}, {name: reset, preset: {MY_CASE: reset}}]
presets: [{SCENARIO_NAME: reset, MY_CASE: reset}]
workflows:
  - name: fetch
    steps:
      - run: [/bin/sh, -c, 'if [ "$MY_CASE" = reset ]; then echo "reset by peer" >&2; exit 56; fi']
)");
    const std::string elsewhere = dir_ + "/elsewhere";
    fs::create_directories(elsewhere);
    const std::string settings = fs::path(settings_).filename().string();
    const auto relative = [&](const std::vector<std::string> &args) {
        std::vector<std::string> argv{SBX_BINARY, "--config", settings, "--data-dir", "data"};
        argv.insert(argv.end(), args.begin(), args.end());
        return sbx::test::run_command(argv, {}, fs::path(settings_).parent_path().string());
    };
    const auto replays = [&](const std::string &line) {
        SCOPED_TRACE(line);
        ASSERT_FALSE(line.empty());
        // Absolute, shell-quoted when the path holds a space (a checkout under "/tmp/a b").
        EXPECT_TRUE(line.find("--config /") != std::string::npos ||
                    line.find("--config '/") != std::string::npos)
            << "an absolute --config";
        EXPECT_TRUE(line.find("--data-dir /") != std::string::npos ||
                    line.find("--data-dir '/") != std::string::npos)
            << "an absolute --data-dir";
        const auto again = paste(line, elsewhere);
        EXPECT_EQ(again.exit_code, 0) << again.out << again.err;
        EXPECT_NE(again.out.find("reproduced"), std::string::npos) << again.out;
    };

    const auto scenarios = relative({"run-scenarios", "fetch", "--seed", "1"});
    ASSERT_EQ(scenarios.exit_code, 0) << scenarios.err;
    replays(printed_replay(scenarios.out, "replay: "));

    const auto run = relative({"run", "--workflow", "fetch", "--runs", "1"});
    replays(printed_replay(run.out, "reset: replay: "));

    // JUnit is XML: what a CI page shows (and a user copies) is the text unescaped.
    const auto junit = relative({"report", "--format", "junit"});
    std::string unescaped = junit.out;
    for (std::size_t at = unescaped.find("&#39;"); at != std::string::npos;
         at = unescaped.find("&#39;", at)) {
        unescaped.replace(at, 5, "'");
    }
    replays(printed_replay(unescaped, "replay: "));

    // The data dir alone names the workflows it has runs of, and the file that defines them.
    const auto listed = sbx::test::run_command(
        {SBX_BINARY, "--data-dir", dir_ + "/data", "workflows", "list", "--json"}, {}, elsewhere);
    ASSERT_EQ(listed.exit_code, 0) << listed.err;
    bool named = false;
    for (const auto &row : json::parse(listed.out)) {
        if (row["name"] == "fetch") {
            named = true;
            EXPECT_EQ(row["recorded_only"], true) << row;
            EXPECT_NE(row["source"].get<std::string>().find(settings_), std::string::npos) << row;
        }
    }
    EXPECT_TRUE(named) << listed.out;
}

// An interrupted matrix never reads as green: the JUnit report has an error case saying so
// and how to finish it, and so do Markdown and HTML.
TEST_F(Reports, AnInterruptedSessionIsAnErrorInEveryShareableFormat) {
    write_settings(R"(
workflows:
  - name: slow
    steps:
      - run: [/bin/sh, -c, 'sleep 0.2']
)");
    const int host = sbx::test::spawn_background(
        {SBX_BINARY, "--config", settings_, "--data-dir", dir_ + "/data", "run-scenarios", "slow",
         "--repetitions", "200", "--workers", "1"},
        {}, dir_, dir_ + "/host.log");
    ASSERT_GE(wait_for_runs(1, std::chrono::seconds(30)), 1);
    ASSERT_EQ(::kill(host, SIGINT), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(host, &status, 0), host);

    const auto junit = runner({"report", "--format", "junit"});
    EXPECT_EQ(junit.exit_code, 0) << junit.err;
    EXPECT_NE(junit.out.find("errors=\"1\""), std::string::npos) << junit.out;
    EXPECT_NE(junit.out.find("<error message=\"interrupted after "), std::string::npos)
        << junit.out;
    EXPECT_NE(junit.out.find("run-scenarios slow --recover"), std::string::npos) << junit.out;
    for (const char *format : {"markdown", "html"}) {
        SCOPED_TRACE(format);
        const auto report = runner({"report", "--format", format});
        EXPECT_NE(report.out.find("interrupted after "), std::string::npos) << report.out;
        EXPECT_NE(report.out.find("--recover"), std::string::npos) << report.out;
    }
}

}  // namespace
