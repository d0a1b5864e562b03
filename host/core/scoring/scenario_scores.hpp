// Scoring a workflow across scenarios (docs/semantics.md "Statuses" and "Scenario scores"): the ROI
// and RAROI of each scenario with the workflow on and off, which scenarios fail, and the verdict.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "scoring/raroi.hpp"

namespace sbx::scoring {

// What one cell (workflow, preset, flag) measured.
struct CellResult {
    double roi = 0;                         // passed executions / all executions
    std::map<std::string, double> metrics;  // metric name -> value
};

// One scenario run twice: with the workflow on and with it disabled (the counterfactual).
struct ScenarioInput {
    std::string name;
    CellResult on;
    CellResult off;
    // Why the scenario's faults never reached the target ("" when they did): such a scenario
    // proves nothing, so it is neither a pass nor a fail.
    std::string not_applicable;
    // Why errors of the setup (an injector or the executor that failed, a service that did
    // not start) leave the scenario without a verdict ("" when they do not): inconclusive.
    std::string inconclusive;
    // Set on the `normal` scenario when every one of its on-runs failed: why (the failing
    // step, its exit code or signal, its last stderr lines). The workflow is then broken,
    // and no fault or input is blamed for anything.
    std::string broken;
};

struct ScenarioScore {
    std::string name;
    double roi_on = 0;
    double roi_off = 0;
    double roi_delta = 0;  // roi_on − roi_off
    double raroi_on = 0;
    double raroi_off = 0;
    double raroi_delta = 0;  // raroi_on − raroi_off
    // on[m] − off[m] for the metrics both cells have.
    std::map<std::string, double> target_delta;
    // on[m] − on_normal[m] against the on-cell of the scenario named "normal", for the
    // metrics both have; empty when there is no "normal" scenario.
    std::map<std::string, double> metrics_delta;
    bool failed = false;
    // Why it failed, e.g. "roi_delta -0.250 < 0", "hostile_failures 3 > 0".
    std::vector<std::string> failing_reasons;
    // The hardening tip when it failed, else empty.
    std::string tip;
    // Not applicable, and why: never failed, never the worst, left out of the status.
    std::string not_applicable;
    // Inconclusive, and why: never failed, never the worst; the status is not green.
    std::string inconclusive;
};

// A workflow's verdict over its applicable scenarios: pass (none fails), situationally weak
// (exactly one fails and one or more pass), fail (anything else, including a single scenario
// that fails), or not applicable when no scenario is. Inconclusive: none fails, but errors of
// the setup left one or more without a verdict. Broken: every on-run of `normal` failed, so
// no scenario says anything about faults.
enum class WorkflowVerdict { pass, situationally_weak, fail, not_applicable, inconclusive, broken };

// "pass", "situationally weak", "fail", "not applicable", "inconclusive", "broken": the words
// reports and JSON use.
const char *verdict_name(WorkflowVerdict verdict);

// True for the verdicts a gate and the exit status never take for green whatever the user
// asked: inconclusive and broken.
bool is_unfinished_verdict(WorkflowVerdict verdict);

struct ScenarioReport {
    std::vector<ScenarioScore> scenarios;  // in input order
    // The applicable scenario with the lowest roi_delta (the first on ties); "" when there
    // are none.
    std::string worst_scenario;
    WorkflowVerdict status = WorkflowVerdict::pass;
    // The scenarios left out as not applicable, in input order.
    std::vector<std::string> not_applicable;
    // The scenarios errors left without a verdict, in input order.
    std::vector<std::string> inconclusive;
    // Why the workflow is broken (ScenarioInput::broken); "" when it is not.
    std::string broken;
    // "<scenario>: <tip>" for each failing scenario, in input order.
    std::vector<std::string> tips;
};

// Scores every scenario. Throws InputError when `context.impact` is not a known type.
ScenarioReport score_scenarios(const std::vector<ScenarioInput> &inputs,
                               const RaroiContext &context);

// True for a metric that counts something going wrong: its name contains "failure" or
// "error", or ends in "_breach". Such a metric above 0 fails the scenario.
bool is_failure_metric(const std::string &name);

// The RAROI of one cell: its ROI, failure_rate = 1 − roi, hostile_failures and
// misuse_failures from the metrics of those names, safety from security_score and
// safety_rating; no ROI history, so no instability.
double cell_raroi(const CellResult &cell, const RaroiContext &context);

// "hostile_input: -0.250 <== WORST" or "normal: +0.500": the sign always shown, 3 decimals.
std::string format_delta_line(const std::string &name, double delta, bool worst);

}  // namespace sbx::scoring
