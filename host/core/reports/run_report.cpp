// The `run` report.
#include "reports/run_report.hpp"

#include <cstdio>

#include "engine/input_coverage.hpp"
#include "engine/outcome_counts.hpp"
#include "reports/replay_line.hpp"
#include "util/text_format.hpp"

namespace sbx::reports {

using util::format_text;

using nlohmann::json;

json cells_to_json(const std::vector<engine::CellSummary> &cells, const std::string &commands) {
    json out = json::array();
    for (const auto &cell : cells) {
        json failures = json::object();
        for (const auto &[reason, count] : cell.failures) {
            failures[reason] = count;
        }
        out.push_back(
            {{"workflow", cell.workflow},
             {"preset", cell.preset},
             {"flag", cell.flag},
             {"runs", cell.runs},
             {"passed", cell.passed},
             {"roi", cell.roi},
             {"metrics", cell.metrics},
             {"failures", failures},
             {"active_injectors", cell.active_injectors},
             {"forecast", cell.forecast},
             {"not_applicable", cell.not_applicable.empty() ? json() : json(cell.not_applicable)},
             {"errored_runs", cell.errored},
             {"errors", cell.errors},
             {"failure_detail", cell.failure_detail.empty() ? json() : json(cell.failure_detail)},
             {"replay",
              cell.failed_run != 0 ? json(replay_line(commands, cell.failed_run)) : json()},
             {"outcomes", engine::outcome_counts_json(
                              engine::outcome_counts(cell.metrics, cell.scored_runs()))}});
    }
    return out;
}

namespace {

std::string forecast_text(const json &forecast) {
    const auto &value = forecast.value("value", json());
    if (!value.is_number()) {
        return "-";
    }
    char text[96];
    const bool interval = forecast.contains("lower") && forecast["lower"].is_number() &&
                          forecast.contains("upper") && forecast["upper"].is_number();
    if (forecast.value("insufficient_data", true)) {
        std::snprintf(text, sizeof(text), "%.3f (insufficient data)", value.get<double>());
    } else if (!interval) {
        // A predictor may forecast without an interval (the contract allows null bounds).
        std::snprintf(text, sizeof(text), "%.3f", value.get<double>());
    } else {
        std::snprintf(text, sizeof(text), "%.3f [%.3f, %.3f]", value.get<double>(),
                      forecast["lower"].get<double>(), forecast["upper"].get<double>());
    }
    return text;
}

double metric(const engine::CellSummary &cell, const char *name) {
    const auto found = cell.metrics.find(name);
    return found == cell.metrics.end() ? 0.0 : found->second;
}

// What the configured collectors measured besides the built-in columns, a line per cell.
std::string measured_text(const std::vector<engine::CellSummary> &cells) {
    std::string measured;
    for (const auto &cell : cells) {
        std::string line;
        for (const auto &name : cell.collector_metrics) {
            char value[48];
            std::snprintf(value, sizeof(value), "%g", metric(cell, name.c_str()));
            line += " " + name + "=" + value;
        }
        if (!line.empty()) {
            measured += "  " + cell.preset + ":" + line + "\n";
        }
    }
    return measured;
}

// A robustness preset's runs by outcome class; a preset whose faults had no way in.
std::string outcomes_text(const std::string &workflow,
                          const std::vector<engine::CellSummary> &cells) {
    std::string outcomes;
    for (const auto &cell : cells) {
        if (!cell.not_applicable.empty()) {
            outcomes += "  " + cell.preset + ": n/a (" + cell.not_applicable + ")\n";
        } else if (cell.robustness) {
            outcomes +=
                "  " + cell.preset + ": " + workflow + " " +
                engine::outcome_line(engine::outcome_counts(cell.metrics, cell.scored_runs()));
            if (const auto tried = engine::input_coverage_text(cell.metrics, cell.scored_runs());
                !tried.empty()) {
                outcomes += "; tried " + tried;
            }
            outcomes += "\n";
        }
    }
    return outcomes;
}

std::string failures_text(const std::vector<engine::CellSummary> &cells,
                          const std::string &commands) {
    std::string text;
    bool any_failure = false;
    for (const auto &cell : cells) {
        for (const auto &[reason, count] : cell.failures) {
            if (!any_failure) {
                text += "\nfailures:\n";
            }
            any_failure = true;
            text += format_text("  %s: %s (x%d)\n", cell.preset.c_str(), reason.c_str(), count);
        }
        if (!cell.failure_detail.empty()) {
            text +=
                format_text("  %s: first: %s\n", cell.preset.c_str(), cell.failure_detail.c_str());
        }
        if (cell.failed_run != 0) {
            text += format_text("  %s: replay: %s\n", cell.preset.c_str(),
                                replay_line(commands, cell.failed_run).c_str());
        }
    }
    return text;
}

// Runs the setup failed are no verdict on the target: said apart, never as failures.
std::string setup_errors_text(const std::vector<engine::CellSummary> &cells) {
    std::string text;
    bool any_error = false;
    for (const auto &cell : cells) {
        for (const auto &[error, count] : cell.errors) {
            if (!any_error) {
                text += "\nerrors of the setup (left out of PASSED and ROI):\n";
            }
            any_error = true;
            text += format_text("  %s: %s (x%d)\n", cell.preset.c_str(), error.c_str(), count);
        }
    }
    return text;
}

}  // namespace

std::string cell_table(const std::string &workflow, int runs_per_cell, const std::string &predictor,
                       const std::vector<engine::CellSummary> &cells, const std::string &commands) {
    std::string text =
        format_text("workflow %s: %d run(s) per preset\n\n", workflow.c_str(), runs_per_cell);
    text += format_text("%-18s %5s %6s %6s %9s %10s  %-14s %s\n", "PRESET", "RUNS", "PASSED", "ROI",
                        "WALL_MS", "MAX_RSS_KB", "INJECTORS",
                        ("NEXT ROI (" + predictor + " forecast)").c_str());
    for (const auto &cell : cells) {
        std::string injectors;
        for (const auto &id : cell.active_injectors) {
            injectors += (injectors.empty() ? "" : ",") + id;
        }
        text += format_text("%-18s %5d %6d %6.3f %9.1f %10.0f  %-14s %s\n", cell.preset.c_str(),
                            cell.runs, cell.passed, cell.roi, metric(cell, "wall_s") * 1000.0,
                            metric(cell, "max_rss_kb"), injectors.empty() ? "-" : injectors.c_str(),
                            forecast_text(cell.forecast).c_str());
    }
    if (const std::string measured = measured_text(cells); !measured.empty()) {
        text += "\nmetrics:\n" + measured;
    }
    if (const std::string outcomes = outcomes_text(workflow, cells); !outcomes.empty()) {
        text += "\noutcomes:\n" + outcomes;
    }
    return text + failures_text(cells, commands) + setup_errors_text(cells);
}

}  // namespace sbx::reports
