// Printing the autonomous loop's progress and its final report.
#include "autonomous_output.hpp"

#include <cstdio>
#include <iostream>
#include <string>

#include "autonomous/iteration_presets.hpp"
#include "report.hpp"

namespace sbx::cli {

using autonomous::IterationRecord;
using autonomous::LoopDecisions;
using autonomous::LoopOutcome;
using nlohmann::json;

namespace {

void print_iteration(const IterationRecord &record, int max_iterations,
                     const LoopDecisions &decisions, double seconds) {
    std::printf("iteration %d/%d: %zu preset%s, %zu module%s, %.1f s\n", record.iteration,
                max_iterations, record.presets.size(), record.presets.size() == 1 ? "" : "s",
                record.modules.size(), record.modules.size() == 1 ? "" : "s", seconds);
    if (const auto adapted = autonomous::adaptation_summary(record.adaptation); !adapted.empty()) {
        std::printf("  %s\n", adapted.c_str());
    }
    for (const auto &[name, module] : record.modules) {
        const auto &forecast = module.forecast;
        const auto value = forecast.is_object() ? forecast.value("value", json()) : json();
        std::printf(
            "  %-28s roi %.3f  entropy %.3f  next %s\n", name.c_str(), module.roi, module.entropy,
            value.is_number() ? std::to_string(value.get<double>()).substr(0, 5).c_str() : "-");
    }
    if (record.synergy_roi) {
        std::printf("  %-28s %+.3f\n", "synergy_roi", *record.synergy_roi);
    }
    std::printf("  converged: %s\n", decisions.converged_modules.empty()
                                         ? "none yet"
                                         : [&] {
                                               std::string names;
                                               for (const auto &name : decisions.converged_modules) {
                                                   names += (names.empty() ? "" : ", ") + name;
                                               }
                                               return names;
                                           }()
                                               .c_str());
    std::fflush(stdout);
}

void print_report(const json &report) {
    std::printf("\n%s stopped after %d iteration%s: %s\n",
                report["command"].get<std::string>().c_str(), report["iterations"].get<int>(),
                report["iterations"].get<int>() == 1 ? "" : "s",
                report["stopped"].get<std::string>().c_str());
    for (const auto &pending : report["pending"]) {
        std::printf("  not converged: %s\n", pending.get<std::string>().c_str());
    }
    print_rankings("by total RAROI over the iterations", report["rankings"]);
    std::printf("\nfinal metrics\n");
    for (const auto &[name, module] : report["modules"].items()) {
        if (module["roi"].is_null()) {
            std::printf("  %-28s never ran\n", name.c_str());
            continue;
        }
        std::printf("  %-28s roi %.3f   mean roi %.3f   entropy %.3f   passed %d of %d runs\n",
                    name.c_str(), module["roi"].get<double>(), module["mean_roi"].get<double>(),
                    module["entropy"].get<double>(), module["passed"].get<int>(),
                    module["runs"].get<int>());
    }
    if (report["synergy_roi"].is_number()) {
        std::printf("  %-28s %+.3f\n", "synergy_roi", report["synergy_roi"].get<double>());
    }
    std::printf("\nforesight (foresight_history.json)\n");
    if (report["foresight"].empty()) {
        std::printf("  no trajectory recorded yet; simulate-temporal-trajectory records one\n");
    }
    for (const auto &trend : report["foresight"]) {
        std::printf("  %-28s %d cycles, resilience %s (%+.3f per cycle), stability %.3f %s\n",
                    trend["workflow"].get<std::string>().c_str(), trend["cycles"].get<int>(),
                    trend["direction"].get<std::string>().c_str(),
                    trend["resilience_slope"].get<double>(),
                    trend["latest_stability"].get<double>(),
                    trend["stable"].get<bool>() ? "(holds)" : "(below its mean)");
    }
}

}  // namespace

engine::RunObserver *LoopPrinter::iteration_started(int) {
    progress_.reset();
    return progress_.emplace(options_).observer();
}

void LoopPrinter::runs_finished() {
    if (progress_) {
        progress_->stop();
    }
}

void LoopPrinter::iteration_finished(const IterationRecord &record, const LoopDecisions &decisions,
                                     int max_iterations, double seconds) {
    progress_.reset();
    if (!json_output_) {
        print_iteration(record, max_iterations, decisions, seconds);
    }
}

void print_loop_outcome(const LoopOutcome &outcome, bool json_output) {
    if (json_output) {
        std::cout << outcome.report.dump(2) << '\n';
    } else {
        print_report(outcome.report);
        std::printf("\nrecorded in %s; decisions in %s; loop state in %s\n",
                    outcome.database.c_str(), outcome.threshold_log.c_str(),
                    outcome.state_path.c_str());
    }
    std::fflush(stdout);
}

}  // namespace sbx::cli
