// Printing the autonomous loop's progress and its final report.
#include "autonomous_output.hpp"

#include <cstdio>
#include <iostream>
#include <string>

#include "autonomous/loop_report_text.hpp"

namespace sbx::cli {

using autonomous::IterationRecord;
using autonomous::LoopDecisions;
using autonomous::LoopOutcome;

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
        std::cout << autonomous::iteration_text(record, max_iterations, decisions, seconds);
        std::fflush(stdout);
    }
}

void print_loop_outcome(const LoopOutcome &outcome, bool json_output) {
    if (json_output) {
        std::cout << outcome.report.dump(2) << '\n';
    } else {
        std::cout << autonomous::autonomous_report_text(outcome.report);
        std::printf("\nrecorded in %s; decisions in %s; loop state in %s\n",
                    outcome.database.c_str(), outcome.threshold_log.c_str(),
                    outcome.state_path.c_str());
    }
    std::fflush(stdout);
}

}  // namespace sbx::cli
