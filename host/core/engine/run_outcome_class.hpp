// Outcome classes: how a run of a robustness scenario ended, as the target saw it —
// accepted the input, rejected it cleanly, crashed, or hung — and the scoring rule that
// passes a clean rejection (docs/configuration.md, "Outcome classes").
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/settings.hpp"
#include "presets/preset.hpp"

namespace sbx::engine {

// In order of severity: a run of several steps or copies is classed by its worst.
enum class OutcomeClass {
    accepted,  // met the step's expectation
    rejected,  // exited with one of the step's `rejects:` exit codes
    failed,    // any other ending: an undeclared exit code, missing output, an executor error
    hung,      // ended by the timeout (TO)
    crashed,   // a signal (SG), out of memory (OOM), or a sanitizer's report on stderr
};

// "accepted", "rejected", "failed", "hung", "crashed".
const char *outcome_name(OutcomeClass outcome);
// Every class, in the order reports list them.
const std::vector<OutcomeClass> &outcome_classes();

// The more severe of the two.
OutcomeClass worse(OutcomeClass a, OutcomeClass b);

// True when `stderr_text` holds a sanitizer's report (AddressSanitizer, LeakSanitizer,
// MemorySanitizer, ThreadSanitizer, UndefinedBehaviorSanitizer's "runtime error:").
// Rationale: ASan exits 1 and UBSan may exit 0 after reporting; by the exit code alone a
// memory error would pass for a clean rejection.
bool has_sanitizer_report(const std::string &stderr_text);

// The class of one step's executor result; `met_expectation` is what the expectation check
// said about it.
OutcomeClass classify_step(const config::Step &step, const nlohmann::json &result,
                           bool met_expectation);

// True when the preset feeds a robustness scenario — its stub strategy chain holds
// hostile, misuse or legacy_schema, or FAILURE_MODES names hostile_input, user_misuse or
// schema_drift (or their aliases) — whose runs are scored by the steps' `scoring:` rule.
bool is_robustness_preset(const presets::Preset &preset);

}  // namespace sbx::engine
