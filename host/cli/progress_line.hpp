// The progress line (dashboard/progress_line) as a command asks for it: not drawn when the
// command was given --json (its stdout is for programs) or --quiet.
#pragma once

#include "cli_context.hpp"
#include "dashboard/progress_line.hpp"

namespace sbx::cli {

class ProgressLine final : public dashboard::ProgressLine {
  public:
    explicit ProgressLine(const GlobalOptions &options)
        : dashboard::ProgressLine(!options.quiet && !options.json_output) {}
};

}  // namespace sbx::cli
