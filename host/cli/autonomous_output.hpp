// What run-autonomous and run-complete show: the progress line during each iteration's
// runs, a few lines after each iteration, and the final report (or it as JSON).
#pragma once

#include <optional>

#include "autonomous/loop.hpp"
#include "cli_context.hpp"
#include "progress_line.hpp"

namespace sbx::cli {

// The loop's observer on a terminal: a progress line per iteration, then its lines (none
// with --json, whose stdout is the report alone).
class LoopPrinter final : public autonomous::LoopObserver {
  public:
    LoopPrinter(const GlobalOptions &options, bool json_output)
        : options_(options), json_output_(json_output) {}

    engine::RunObserver *iteration_started(int iteration) override;
    void runs_finished() override;
    void iteration_finished(const autonomous::IterationRecord &record,
                            const autonomous::LoopDecisions &decisions, int max_iterations,
                            double seconds) override;

  private:
    const GlobalOptions &options_;
    bool json_output_;
    std::optional<ProgressLine> progress_;
};

// The final report and where the loop recorded, as text or JSON.
void print_loop_outcome(const autonomous::LoopOutcome &outcome, bool json_output);

}  // namespace sbx::cli
