// Building, writing and printing the run-scenarios result.
#include "reports/scenario_summary.hpp"
#include "reports/replay_line.hpp"

#include <algorithm>
#include <cstdio>

#include "engine/input_coverage.hpp"
#include "engine/outcome_counts.hpp"
#include "engine/run_errors.hpp"
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
                          cell.on.not_applicable,
                          engine::inconclusive_reason(cell.on, cell.off),
                          engine::broken_reason(cell.scenario, cell.on)});
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

// "the polyglot shrank to format_string (2 bytes, 34 runs; replay: sandbox-runner replay 57)"
std::string shrunk_text(const json &shrunk, const std::string &commands) {
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
    return text + "; replay: " + replay_line(commands, shrunk.value("run", int64_t{0})) + ")";
}

// "pass", "fail", "n/a" or "inconclusive"; the table shouts a failure ("FAIL").
std::string result_word(const scoring::ScenarioScore &score, bool shout_failure) {
    if (!score.not_applicable.empty()) {
        return "n/a";
    }
    if (!score.inconclusive.empty()) {
        return "inconclusive";
    }
    if (score.failed) {
        return shout_failure ? "FAIL" : "fail";
    }
    return "pass";
}

std::string joined(const std::vector<std::string> &names) {
    std::string text;
    for (const auto &name : names) {
        text += (text.empty() ? "" : ", ") + name;
    }
    return text;
}

// "status: pass (n/a: hostile_input, flaky_upstream)"; "status: fail (inconclusive:
// high_latency)".
std::string status_line(const scoring::ScenarioReport &report) {
    std::string line = std::string("status: ") + scoring::verdict_name(report.status);
    std::vector<std::string> notes;
    if (!report.inconclusive.empty() && report.status != scoring::WorkflowVerdict::inconclusive) {
        notes.push_back("inconclusive: " + joined(report.inconclusive));
    }
    if (!report.not_applicable.empty() &&
        report.status != scoring::WorkflowVerdict::not_applicable) {
        notes.push_back("n/a: " + joined(report.not_applicable));
    }
    if (!notes.empty()) {
        line += " (" + joined(notes) + ")";
    }
    return line + "\n";
}

// "  high_latency: 2 of 13 on-runs were errors, not verdicts: injector 'network' ..." for
// each scenario with errored runs that still has a verdict (an inconclusive one says it in
// its own line).
std::string errors_text(const ScenarioRun &run) {
    std::string out;
    for (size_t i = 0; i < run.report.scenarios.size(); ++i) {
        const auto &score = run.report.scenarios[i];
        const auto &cells = run.cells[i];
        const int errored = cells.on.errored + cells.off.errored;
        if (errored == 0 || !score.not_applicable.empty() || !score.inconclusive.empty()) {
            continue;
        }
        out += "  " + score.name + ": " + std::to_string(errored) + " of " +
               std::to_string(cells.on.runs + cells.off.runs) +
               " runs were errors of the setup, left out of the ROI: " +
               engine::most_frequent_error(cells.on.errored > 0 ? cells.on : cells.off) + "\n";
    }
    return out;
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
        out +=
            "  " + cells.scenario + ": " + run.workflow + " " +
            engine::outcome_line(engine::outcome_counts(cells.on.metrics, cells.on.scored_runs()));
        if (const auto tried =
                engine::input_coverage_text(cells.on.metrics, cells.on.scored_runs());
            !tried.empty()) {
            out += "; tried " + tried;
        }
        out += "\n";
    }
    return out.empty() ? "" : "outcomes of the runs under robustness scenarios:\n" + out;
}

// What each scenario's on-runs really got of its faults, and what they did not get: a pass
// means something only for faults that happened.
std::string injected_faults_text(const ScenarioRun &run) {
    std::string out;
    for (size_t i = 0; i < run.report.scenarios.size(); ++i) {
        const auto &on = run.cells[i].on;
        if (!run.report.scenarios[i].not_applicable.empty()) {
            continue;
        }
        std::string line = on.injected();
        std::string missed;
        for (const auto &[source, why] : on.faults.not_applied) {
            missed.append(missed.empty() ? "" : "; ").append(source).append(": ").append(why);
        }
        if (!missed.empty()) {
            line += (line.empty() ? "" : "; ") + std::string("not applied: ") + missed;
        }
        if (!line.empty()) {
            out += "  " + run.report.scenarios[i].name + ": " + line + "\n";
        }
    }
    return out.empty() ? "" : "faults injected into the on-runs:\n" + out;
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
            {"inconclusive", score.inconclusive.empty() ? json() : json(score.inconclusive)},
            {"injected", on.injected()},
            {"faults_applied", on.faults.applied},
            {"faults_not_applied", on.faults.not_applied},
            {"errored_runs", on.errored},
            {"errored_runs_off", run.cells[i].off.errored},
            {"failure_detail", on.failure_detail.empty() ? json() : json(on.failure_detail)},
            {"outcomes",
             engine::outcome_counts_json(engine::outcome_counts(on.metrics, on.scored_runs()))},
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
            {"passed", applicable && score.inconclusive.empty() ? json(!score.failed) : json()},
            {"reasons", score.failing_reasons},
            {"tip", score.tip},
            {"runs", on.runs},
            {"failures", failures},
            {"inputs", on.strategy},
            {"broken_by", engine::failure_tags(on.metrics)},
            {"shrunk", run.shrunk.count(score.name) != 0 ? run.shrunk.at(score.name) : json()},
            {"replay",
             on.failed_run != 0 ? json(replay_line(run.commands, on.failed_run)) : json()}};
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
            {"inconclusive", run.report.inconclusive},
            {"broken", run.report.broken.empty() ? json() : json(run.report.broken)},
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
            {"not_applicable", score.not_applicable.empty() ? json() : json(score.not_applicable)},
            {"inconclusive", score.inconclusive.empty() ? json() : json(score.inconclusive)}};
    }
    return deltas;
}

void write_scenario_exports(const std::filesystem::path &data_dir, const ScenarioRun &run) {
    write_file_atomically(data_dir / "scenario_deltas.json",
                          scenario_deltas(run.report).dump(2) + "\n");
    write_file_atomically(data_dir / ("scorecard_" + run.workflow + ".json"),
                          scenario_summary(run).dump(2) + "\n");
}

std::string scenario_heading(const ScenarioRun &run, const std::vector<engine::CellPlan> &plans,
                             std::size_t scenarios, unsigned workers, bool has_baseline) {
    // The plans say which cells run more often than --repetitions.
    const bool any_repeated = std::any_of(
        plans.begin(), plans.end(),
        [&](const engine::CellPlan &plan) { return plan.options.runs != run.repetitions; });
    const std::string robustness_runs =
        any_repeated
            ? " (robustness and fault scenarios: " + std::to_string(run.robustness_repetitions) +
                  ")"
            : "";
    return "run-scenarios " + run.workflow + ": " + std::to_string(scenarios) +
           " scenarios x 2 cells x " + std::to_string(run.repetitions) + " runs" + robustness_runs +
           " (seed " + std::to_string(run.seed) + ", " + std::to_string(workers) + " worker" +
           (workers == 1 ? "" : "s") + ")" +
           (has_baseline ? " against baseline " + run.baseline : "") + "\n\n";
}

std::string scenario_text(const ScenarioRun &run) {
    std::string out;
    if (!run.report.broken.empty()) {
        // First: nothing below means anything until the workflow works with no fault at all.
        out += run.workflow + " is broken: " + run.report.broken +
               "\n  fix the workflow (or its expectations) first; no scenario below blames a "
               "fault or an input\n\n";
    }
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
        if (!score.inconclusive.empty()) {
            out += score.name + ": inconclusive (" + score.inconclusive + ")\n";
            continue;
        }
        out += scoring::format_delta_line(score.name, score.roi_delta,
                                          any_failed && score.name == run.report.worst_scenario) +
               "\n";
    }
    out += "\n" + status_line(run.report);
    out += errors_text(run);
    const bool broken = !run.report.broken.empty();
    for (size_t i = 0; i < run.report.scenarios.size(); ++i) {
        const auto &score = run.report.scenarios[i];
        if (!score.failed || broken) {
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
        if (!run.cells[i].on.failure_detail.empty()) {
            out += "; first: " + run.cells[i].on.failure_detail;
        }
        out += "\n";
    }
    // What broke the target, by input category, and how to see it happen again.
    for (size_t i = 0; i < run.report.scenarios.size(); ++i) {
        const auto &on = run.cells[i].on;
        const auto tags = engine::failure_tags(on.metrics);
        if (broken || !run.report.scenarios[i].not_applicable.empty() ||
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
            out += " " + shrunk_text(shrunk->second, run.commands) + ";";
        }
        if (on.failed_run != 0) {
            out += " replay: " + replay_line(run.commands, on.failed_run);
        }
        out += "\n";
    }
    out += injected_faults_text(run);
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
