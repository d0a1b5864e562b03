// Per-scenario deltas, the failure rule and the workflow verdict of run-scenarios.
#include "scoring/scenario_scores.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "scoring/scenario_tips.hpp"

namespace sbx::scoring {

namespace {

// "%+.3f", except that −0 prints as +0.000 (a zero delta has no sign to show).
std::string signed_three_decimals(double value) {
    char text[64];
    std::snprintf(text, sizeof text, "%+.3f", value == 0 ? 0.0 : value);
    return text;
}

// The shortest text of a metric value: "3", "0.25".
std::string plain_number(double value) {
    std::ostringstream out;
    out << value;
    return out.str();
}

bool ends_with(const std::string &text, const std::string &suffix) {
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A failure count from a metric. Rationale: metrics may be averages over runs (0.4 hostile
// failures per run); any positive value means at least one failure, so it rounds up.
int failure_count(const std::map<std::string, double> &metrics, const std::string &name) {
    auto found = metrics.find(name);
    if (found == metrics.end() || !(found->second > 0)) {
        return 0;
    }
    return static_cast<int>(std::min(std::ceil(found->second), 1e9));
}

// on[m] − base[m] for every metric both have.
std::map<std::string, double> difference(const std::map<std::string, double> &on,
                                         const std::map<std::string, double> &base) {
    std::map<std::string, double> out;
    for (const auto &[name, value] : on) {
        if (auto other = base.find(name); other != base.end()) {
            out[name] = value - other->second;
        }
    }
    return out;
}

std::vector<std::string> failing_reasons(const ScenarioScore &score, const CellResult &on) {
    std::vector<std::string> reasons;
    if (score.roi_delta < 0) {
        reasons.push_back("roi_delta " + signed_three_decimals(score.roi_delta) + " < 0");
    }
    for (const auto &[name, value] : on.metrics) {
        // `hostile_failures.sql_injection` breaks `hostile_failures` down by category: the
        // total is the reason, the breakdown is reported beside it ("broken by").
        if (name.find('.') != std::string::npos) {
            continue;
        }
        if (is_failure_metric(name) && value > 0) {
            reasons.push_back(name + " " + plain_number(value) + " > 0");
        }
    }
    return reasons;
}

WorkflowVerdict verdict(size_t failed, size_t total) {
    if (failed == 0) {
        return WorkflowVerdict::pass;
    }
    if (failed == 1 && total > 1) {
        return WorkflowVerdict::situationally_weak;
    }
    return WorkflowVerdict::fail;
}

}  // namespace

const char *verdict_name(WorkflowVerdict verdict) {
    switch (verdict) {
        case WorkflowVerdict::pass:
            return "pass";
        case WorkflowVerdict::situationally_weak:
            return "situationally weak";
        case WorkflowVerdict::fail:
            return "fail";
        case WorkflowVerdict::not_applicable:
            return "not applicable";
        case WorkflowVerdict::inconclusive:
            return "inconclusive";
        case WorkflowVerdict::broken:
            return "broken";
    }
    return "fail";
}

bool is_unfinished_verdict(WorkflowVerdict verdict) {
    return verdict == WorkflowVerdict::inconclusive || verdict == WorkflowVerdict::broken;
}

bool is_failure_metric(const std::string &name) {
    return name.find("failure") != std::string::npos || name.find("error") != std::string::npos ||
           ends_with(name, "_breach");
}

double cell_raroi(const CellResult &cell, const RaroiContext &context) {
    RaroiInputs inputs;
    inputs.roi = cell.roi;
    inputs.failure_rate = 1 - cell.roi;
    inputs.impact = context.impact;
    inputs.hostile_failures = failure_count(cell.metrics, "hostile_failures");
    inputs.misuse_failures = failure_count(cell.metrics, "misuse_failures");
    for (const char *name : {"security_score", "safety_rating"}) {
        if (auto found = cell.metrics.find(name); found != cell.metrics.end()) {
            inputs.safety_scores.push_back(found->second);
        }
    }
    return raroi(inputs, context.severity).raroi;
}

ScenarioReport score_scenarios(const std::vector<ScenarioInput> &inputs,
                               const RaroiContext &context) {
    auto normal = std::find_if(inputs.begin(), inputs.end(),
                               [](const ScenarioInput &input) { return input.name == "normal"; });
    ScenarioReport report;
    size_t failed = 0;
    size_t applicable = 0;
    double worst_delta = 0;
    for (const ScenarioInput &input : inputs) {
        ScenarioScore score;
        score.name = input.name;
        score.roi_on = input.on.roi;
        score.roi_off = input.off.roi;
        score.roi_delta = score.roi_on - score.roi_off;
        score.raroi_on = cell_raroi(input.on, context);
        score.raroi_off = cell_raroi(input.off, context);
        score.raroi_delta = score.raroi_on - score.raroi_off;
        score.target_delta = difference(input.on.metrics, input.off.metrics);
        if (normal != inputs.end()) {
            score.metrics_delta = difference(input.on.metrics, normal->on.metrics);
        }
        score.not_applicable = input.not_applicable;
        if (!score.not_applicable.empty()) {
            report.not_applicable.push_back(score.name);
            report.scenarios.push_back(std::move(score));
            continue;
        }
        if (!input.broken.empty() && report.broken.empty()) {
            report.broken = input.broken;
        }
        score.inconclusive = input.inconclusive;
        if (!score.inconclusive.empty()) {
            report.inconclusive.push_back(score.name);
            report.scenarios.push_back(std::move(score));
            continue;
        }
        ++applicable;
        score.failing_reasons = failing_reasons(score, input.on);
        score.failed = !score.failing_reasons.empty();
        if (score.failed) {
            ++failed;
            score.tip = hardening_tip(score.name);
            report.tips.push_back(score.name + ": " + score.tip);
        }
        // Strictly lower, so the first of equal deltas stays the worst.
        if (report.worst_scenario.empty() || score.roi_delta < worst_delta) {
            worst_delta = score.roi_delta;
            report.worst_scenario = score.name;
        }
        report.scenarios.push_back(std::move(score));
    }
    report.status = verdict(failed, applicable);
    if (!report.broken.empty()) {
        // A workflow that never works under no fault at all: what the other scenarios measured
        // is that, not their faults.
        report.status = WorkflowVerdict::broken;
        report.tips.clear();
        report.worst_scenario.clear();
        for (auto &score : report.scenarios) {
            score.tip.clear();
        }
    } else if (!report.inconclusive.empty() && report.status == WorkflowVerdict::pass) {
        report.status = WorkflowVerdict::inconclusive;
    } else if (applicable == 0 && !inputs.empty()) {
        report.status = WorkflowVerdict::not_applicable;
    }
    return report;
}

std::string format_delta_line(const std::string &name, double delta, bool worst) {
    return name + ": " + signed_three_decimals(delta) + (worst ? " <== WORST" : "");
}

}  // namespace sbx::scoring
