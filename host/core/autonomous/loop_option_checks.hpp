// The autonomous loop's options as a command line gives them, checked: each number in its
// range, the thresholds kept only when written, a refusal naming the option and its range.
#pragma once

#include <set>
#include <string>

#include "autonomous/loop_options.hpp"

namespace sbx::autonomous {

// The options as given, before they are checked: the numbers the loop keeps as optionals
// are read into plain ones first (a command-line parser fills plain values).
struct LoopOptionsAsGiven {
    AutonomousOptions loop;
    int workers = 0;
    int roi_cycles = 0;
    int synergy_cycles = 0;
    double roi_threshold = 0;
    double synergy_threshold = 0;
    double entropy_threshold = 0;
    int threshold_window = 0;
    double threshold_weight = 0;
    int consecutive = 0;
};

// The options `given` checked for `command` (run-autonomous or run-complete). `written`:
// the names of the options the command line wrote out (without "--"), as only those are
// checked or kept. Throws InputError "COMMAND: --OPTION ... must be ..." for the first
// option out of range, and for run-complete without presets.
AutonomousOptions checked_loop_options(const std::string &command, LoopOptionsAsGiven given,
                                       const std::set<std::string> &written);

}  // namespace sbx::autonomous
