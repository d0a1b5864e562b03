// JUnit XML as Jenkins, GitLab and GitHub's test reporters read it: <testsuites>, one
// <testsuite> per workflow, one <testcase> per scenario; a failing scenario has <failure>
// with the reasons and the replay line, a not-applicable one is <skipped>.
#include <cstdio>

#include "reports/markup_escape.hpp"
#include "reports/replay_line.hpp"
#include "reports/report_formats.hpp"

namespace sbx::reports {
namespace {

std::string seconds(double value) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.3f", value < 0 ? 0.0 : value);
    return text;
}

std::string attribute(const std::string &name, const std::string &value) {
    return " " + name + "=\"" + escape_markup(value) + "\"";
}

std::string property(const std::string &name, const std::string &value) {
    return "      <property" + attribute("name", name) + attribute("value", value) + "/>\n";
}

std::string failure_text(const ScenarioOutcome &scenario, const std::string &commands) {
    std::string text;
    for (const auto &reason : scenario.reasons) {
        text += reason + "\n";
    }
    char line[160];
    std::snprintf(line, sizeof(line), "roi on %.3f, off %.3f, delta %+.3f\n", scenario.roi_on,
                  scenario.roi_off, scenario.roi_delta);
    text += line;
    if (scenario.failed_runs > 0) {
        text += std::to_string(scenario.failed_runs) + " of " + std::to_string(scenario.runs) +
                " runs failed";
        if (!scenario.failed_step.empty()) {
            text += ", first at step " + scenario.failed_step;
        }
        if (!scenario.failed_outcome.empty()) {
            text += " (" + scenario.failed_outcome + ")";
        }
        text += "\n";
        if (!scenario.failure_detail.empty()) {
            text += "why: " + scenario.failure_detail + "\n";
        }
    }
    if (scenario.replay_run != 0) {
        text += "replay: " + replay_line(commands, scenario.replay_run) + "\n";
    }
    if (!scenario.tip.empty()) {
        text += "tip: " + scenario.tip + "\n";
    }
    return text;
}

}  // namespace

std::string junit_report(const SessionReport &report, const std::string &data_dir) {
    const std::string commands = command_prefix(report.settings_source, data_dir);
    int tests = 0;
    int failures = 0;
    int errors = 0;
    double time = 0;
    std::string suites;
    // An unfinished matrix is an error case of its own: CI must never read it as green
    // (an empty or partial report would pass).
    if (const std::string unfinished = unfinished_text(report, commands); !unfinished.empty()) {
        ++tests;
        ++errors;
        suites += "  <testsuite" + attribute("name", "session") + attribute("tests", "1") +
                  attribute("failures", "0") + attribute("errors", "1") +
                  attribute("skipped", "0") + attribute("time", "0") +
                  attribute("timestamp", report.started_at) + ">\n    <testcase" +
                  attribute("name", "the matrix finished") +
                  attribute("classname", "sandbox-runner.session") + ">\n      <error" +
                  attribute("message", unfinished) + attribute("type", "session_" + report.status) +
                  "/>\n    </testcase>\n  </testsuite>\n";
    }
    // A disabled plugin is no failure of the target (the runs went on without its numbers),
    // and CI must still see it: a skipped case per plugin, with the reason.
    if (!report.disabled_plugins.empty()) {
        std::string cases;
        const auto lines = disabled_plugin_lines(report.disabled_plugins);
        for (size_t i = 0; i < lines.size(); ++i) {
            cases += "    <testcase" +
                     attribute("name", "plugin " + report.disabled_plugins[i].id + " answered") +
                     attribute("classname", "sandbox-runner.plugins") + ">\n      <skipped" +
                     attribute("message", lines[i]) + "/>\n    </testcase>\n";
        }
        const std::string count = std::to_string(lines.size());
        tests += static_cast<int>(lines.size());
        suites += "  <testsuite" + attribute("name", "plugins") + attribute("tests", count) +
                  attribute("failures", "0") + attribute("errors", "0") +
                  attribute("skipped", count) + attribute("time", "0") +
                  attribute("timestamp", report.started_at) + ">\n" + cases + "  </testsuite>\n";
    }
    for (const auto &workflow : report.workflows) {
        int suite_failures = 0;
        int suite_errors = 0;
        int skipped = 0;
        double suite_time = 0;
        std::string cases;
        for (const auto &scenario : workflow.scenarios) {
            suite_time += scenario.wall_s;
            cases += "    <testcase" + attribute("name", scenario.scenario) +
                     attribute("classname", "sandbox-runner." + workflow.workflow) +
                     attribute("time", seconds(scenario.wall_s));
            if (!scenario.not_applicable.empty()) {
                ++skipped;
                cases += ">\n      <skipped" +
                         attribute("message", "not applicable: " + scenario.not_applicable) +
                         "/>\n    </testcase>\n";
            } else if (!scenario.inconclusive.empty()) {
                // An error, not a failure: the setup, not the target, left it without a verdict.
                ++suite_errors;
                cases += ">\n      <error" +
                         attribute("message", "inconclusive: " + scenario.inconclusive) +
                         attribute("type", "inconclusive") + "/>\n    </testcase>\n";
            } else if (!scenario.broken.empty()) {
                ++suite_failures;
                cases += ">\n      <failure" + attribute("message", "broken: " + scenario.broken) +
                         attribute("type", "workflow_broken") + ">" +
                         escape_markup(failure_text(scenario, commands)) +
                         "</failure>\n    </testcase>\n";
            } else if (scenario.failed) {
                ++suite_failures;
                const std::string message =
                    scenario.reasons.empty() ? "the scenario failed" : scenario.reasons.front();
                cases += ">\n      <failure" + attribute("message", message) +
                         attribute("type", "scenario_failed") + ">" +
                         escape_markup(failure_text(scenario, commands)) +
                         "</failure>\n    </testcase>\n";
            } else {
                cases += "/>\n";
            }
        }
        tests += static_cast<int>(workflow.scenarios.size());
        failures += suite_failures;
        errors += suite_errors;
        time += suite_time;
        suites += "  <testsuite" + attribute("name", workflow.workflow) +
                  attribute("tests", std::to_string(workflow.scenarios.size())) +
                  attribute("failures", std::to_string(suite_failures)) +
                  attribute("errors", std::to_string(suite_errors)) +
                  attribute("skipped", std::to_string(skipped)) +
                  attribute("time", seconds(suite_time)) +
                  attribute("timestamp", report.started_at) + ">\n    <properties>\n" +
                  property("session", std::to_string(report.session)) +
                  property("verdict", workflow.verdict) +
                  property("worst_scenario", workflow.worst_scenario) +
                  property("seed", report.seed ? std::to_string(*report.seed) : "") +
                  "    </properties>\n" + cases + "  </testsuite>\n";
    }
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites" +
           attribute("name", "sandbox-runner session " + std::to_string(report.session)) +
           attribute("tests", std::to_string(tests)) +
           attribute("failures", std::to_string(failures)) +
           attribute("errors", std::to_string(errors)) + attribute("time", seconds(time)) + ">\n" +
           suites + "</testsuites>\n";
}

}  // namespace sbx::reports
