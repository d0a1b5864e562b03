// Building, writing and printing the run-scenarios result.
#include "reports/scenario_summary.hpp"

#include <algorithm>
#include <cstdio>

#include "engine/input_coverage.hpp"
#include "engine/outcome_counts.hpp"
#include "engine/stub_failures.hpp"
#include "util/atomic_file.hpp"

namespace sbx::reports {

using nlohmann::json;

std::vector<scoring::ScenarioInput> scoring_inputs(
    const std::vector<engine::ScenarioCells> &cells) {
    std::vector<scoring::ScenarioInput> inputs;
    inputs.reserve(cells.size());
    for (const auto &cell : cells) {
        inputs.push_back({cell.scenario,
                          {cell.on.roi, cell.on.metrics},
                          {cell.off.roi, cell.off.metrics},
                          cell.on.not_applicable});
    }
    return inputs;
}

namespace {

// "hostile: sql_injection 25%, format_string 12%" — what broke the on-runs, by the stub
// strategies' tags, most frequent first.
std::string broken_by_text(const std::map<std::string, std::map<std::string, double>> &tags) {
    std::string text;
    for (const auto &[strategy, by_tag] : tags) {
        std::vector<std::pair<std::string, double>> sorted(by_tag.begin(), by_tag.end());
        std::stable_sort(sorted.begin(), sorted.end(),
                         [](const auto &a, const auto &b) { return a.second > b.second; });
        text += (text.empty() ? "" : "; ") + strategy + ":";
        for (size_t i = 0; i < sorted.size(); ++i) {
            char share[32];
            std::snprintf(share, sizeof share, " %.0f%%", sorted[i].second * 100);
            text += (i == 0 ? " " : ", ") + sorted[i].first + share;
        }
    }
    return text;
}

std::string replay_command(int64_t run_id) {
    return "sandbox-runner replay " + std::to_string(run_id);
}

// "the polyglot shrank to format_string (2 bytes, 34 runs; replay: sandbox-runner replay 57)"
std::string shrunk_text(const json &shrunk) {
    const std::string category = shrunk.value("category", std::string());
    const auto size = shrunk.value("size", int64_t{0});
    std::string text;
    if (!category.empty()) {
        text = "the polyglot shrank to " + category + " (" + std::to_string(size) +
               (size == 1 ? " byte, " : " bytes, ");
    } else if (size == 0) {
        text = "the polyglot did not matter: empty inputs fail the same way (";
    } else {
        text = "the polyglot shrank to " + std::to_string(size) + " bytes of no single category (";
    }
    text += std::to_string(shrunk.value("runs", 0)) + " runs";
    if (!shrunk.value("minimal", false)) {
        text += ", out of budget";
    }
    return text + "; replay: " + replay_command(shrunk.value("run", int64_t{0})) + ")";
}

// "pass", "fail" or "n/a"; the table shouts a failure ("FAIL").
std::string result_word(const scoring::ScenarioScore &score, bool shout_failure) {
    if (!score.not_applicable.empty()) {
        return "n/a";
    }
    if (score.failed) {
        return shout_failure ? "FAIL" : "fail";
    }
    return "pass";
}

// "status: pass (n/a: hostile_input, flaky_upstream)".
std::string status_line(const scoring::ScenarioReport &report) {
    std::string line = std::string("status: ") + scoring::verdict_name(report.status);
    if (!report.not_applicable.empty() &&
        report.status != scoring::WorkflowVerdict::not_applicable) {
        line += " (n/a: ";
        for (size_t i = 0; i < report.not_applicable.size(); ++i) {
            line += (i == 0 ? "" : ", ") + report.not_applicable[i];
        }
        line += ")";
    }
    return line + "\n";
}

// The outcome classes of the robustness scenarios' on-runs, with the input categories the
// target crashed or hung on.
std::string outcomes_text(const ScenarioRun &run) {
    std::string out;
    for (size_t i = 0; i < run.report.scenarios.size(); ++i) {
        const auto &cells = run.cells[i];
        if (!cells.robustness || !run.report.scenarios[i].not_applicable.empty()) {
            continue;
        }
        out += "  " + cells.scenario + ": " + run.workflow + " " +
               engine::outcome_line(engine::outcome_counts(cells.on.metrics, cells.on.runs));
        if (const auto tried = engine::input_coverage_text(cells.on.metrics, cells.on.runs);
            !tried.empty()) {
            out += "; tried " + tried;
        }
        out += "\n";
    }
    return out.empty() ? "" : "outcomes of the runs under robustness scenarios:\n" + out;
}

}  // namespace

json scenario_summary(const ScenarioRun &run) {
    json scenarios = json::object();
    json order = json::array();
    for (size_t i = 0; i < run.report.scenarios.size(); ++i) {
        const auto &score = run.report.scenarios[i];
        const auto &on = run.cells[i].on;
        json failures = json::object();
        for (const auto &[reason, count] : on.failures) {
            failures[reason] = count;
        }
        order.push_back(score.name);
        const bool applicable = score.not_applicable.empty();
        scenarios[score.name] = {
            {"result", result_word(score, false)},
            {"not_applicable", applicable ? json() : json(score.not_applicable)},
            {"outcomes", engine::outcome_counts_json(engine::outcome_counts(on.metrics, on.runs))},
            {"robustness", run.cells[i].robustness},
            {"inputs_tried", engine::input_coverage_json(on.metrics)},
            {"roi", score.roi_on},
            {"roi_off", score.roi_off},
            {"roi_delta", score.roi_delta},
            {"raroi", score.raroi_on},
            {"raroi_off", score.raroi_off},
            {"raroi_delta", score.raroi_delta},
            {"target_delta", score.target_delta},
            {"metrics_delta", score.metrics_delta},
            {"passed", applicable ? json(!score.failed) : json()},
            {"reasons", score.failing_reasons},
            {"tip", score.tip},
            {"runs", on.runs},
            {"failures", failures},
            {"inputs", on.strategy},
            {"broken_by", engine::failure_tags(on.metrics)},
            {"shrunk", run.shrunk.count(score.name) != 0 ? run.shrunk.at(score.name) : json()},
            {"replay", on.failed_run != 0 ? json(replay_command(on.failed_run)) : json()}};
    }
    return {{"workflow", run.workflow},
            {"mode", run.baseline.empty() ? "counterfactual" : "baseline"},
            {"baseline", run.baseline.empty() ? json() : json(run.baseline)},
            {"session", run.session},
            {"seed", run.seed},
            {"repetitions", run.repetitions},
            {"robustness_repetitions", run.robustness_repetitions},
            {"status", scoring::verdict_name(run.report.status)},
            {"worst_scenario", run.report.worst_scenario},
            {"not_applicable", run.report.not_applicable},
            {"order", order},
            {"scenarios", scenarios},
            {"tips", run.report.tips}};
}

json scenario_deltas(const scoring::ScenarioReport &report) {
    json deltas = json::object();
    for (const auto &score : report.scenarios) {
        deltas[score.name] = {
            {"roi_delta", score.roi_delta},
            {"raroi_delta", score.raroi_delta},
            {"worst", score.name == report.worst_scenario},
            {"not_applicable", score.not_applicable.empty() ? json() : json(score.not_applicable)}};
    }
    return deltas;
}

void write_scenario_exports(const std::filesystem::path &data_dir, const ScenarioRun &run) {
    write_file_atomically(data_dir / "scenario_deltas.json",
                          scenario_deltas(run.report).dump(2) + "\n");
    write_file_atomically(data_dir / ("scorecard_" + run.workflow + ".json"),
                          scenario_summary(run).dump(2) + "\n");
}

std::string scenario_text(const ScenarioRun &run) {
    std::string out;
    char line[256];
    std::snprintf(line, sizeof(line), "%-20s %7s %8s %8s %9s  %s\n", "scenario", "roi on",
                  run.baseline.empty() ? "roi off" : "baseline", "delta", "raroi d", "result");
    out += line;
    for (const auto &score : run.report.scenarios) {
        std::snprintf(line, sizeof(line), "%-20s %7.3f %8.3f %+8.3f %+9.3f  %s\n",
                      score.name.c_str(), score.roi_on, score.roi_off, score.roi_delta,
                      score.raroi_delta, result_word(score, true).c_str());
        out += line;
    }
    out += "\n";
    // The marker points at what to fix first: nothing when every applicable scenario passed.
    const bool any_failed =
        std::any_of(run.report.scenarios.begin(), run.report.scenarios.end(),
                    [](const scoring::ScenarioScore &score) { return score.failed; });
    for (const auto &score : run.report.scenarios) {
        if (!score.not_applicable.empty()) {
            out += score.name + ": n/a (" + score.not_applicable + ")\n";
            continue;
        }
        out += scoring::format_delta_line(score.name, score.roi_delta,
                                          any_failed && score.name == run.report.worst_scenario) +
               "\n";
    }
    out += "\n" + status_line(run.report);
    for (size_t i = 0; i < run.report.scenarios.size(); ++i) {
        const auto &score = run.report.scenarios[i];
        if (!score.failed) {
            continue;
        }
        out += "  " + score.name + " failed:";
        for (const auto &reason : score.failing_reasons) {
            out += " " + reason + ";";
        }
        // The most frequent failure of the on-cell says what actually broke.
        const auto &failures = run.cells[i].on.failures;
        const auto most =
            std::max_element(failures.begin(), failures.end(),
                             [](const auto &a, const auto &b) { return a.second < b.second; });
        if (most != failures.end()) {
            out += " most often " + most->first + " (" + std::to_string(most->second) + "x)";
        }
        out += "\n";
    }
    // What broke the target, by input category, and how to see it happen again.
    for (size_t i = 0; i < run.report.scenarios.size(); ++i) {
        const auto &on = run.cells[i].on;
        const auto tags = engine::failure_tags(on.metrics);
        if (!run.report.scenarios[i].not_applicable.empty() ||
            (tags.empty() && !(run.report.scenarios[i].failed && on.failed_run != 0))) {
            continue;
        }
        const std::string &name = run.report.scenarios[i].name;
        out += "  " + name + ":";
        if (!tags.empty()) {
            out += " broken by " + broken_by_text(tags) + ";";
        }
        const auto shrunk = run.shrunk.find(name);
        if (shrunk != run.shrunk.end()) {
            // A polyglot carries many triggers: name the one the failure needed.
            out += " " + shrunk_text(shrunk->second) + ";";
        }
        if (on.failed_run != 0) {
            out += " replay: " + replay_command(on.failed_run);
        }
        out += "\n";
    }
    out += outcomes_text(run);
    if (!run.report.tips.empty()) {
        out += "hardening tips:\n";
        for (const auto &tip : run.report.tips) {
            out += "  - " + tip + "\n";
        }
    }
    return out;
}

}  // namespace sbx::reports
