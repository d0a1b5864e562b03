// The rules strategy of adapt-presets (docs/semantics.md "Adapting presets"), after the
// seeds' adapt_presets: resources get milder when the ROI stalls or falls and harsher again
// once it rises; positive synergy tightens CPU and memory and eases the network, negative
// synergy the opposite; a well-hardened program meets a stronger adversary. One rule is a
// tester's own: a preset the workflow passed in every run teaches nothing, so while its ROI
// stays there every key it sets gets harsher.
#pragma once

#include <string>

#include "presets/preset_ladders.hpp"
#include "presets/trend_signals.hpp"

namespace sbx::presets {

struct RuleStep {
    Step step = Step::keep;
    std::string why;  // the signals that voted, "" when none did
};

// Each ladder key's step: the sign of the rules' votes (+1 harsher, -1 milder) for it.
RuleStep rule_step(const std::string &key, const TrendSignals &signals);

}  // namespace sbx::presets
