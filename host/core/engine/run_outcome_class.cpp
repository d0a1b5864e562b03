// Classing a step's result and the preset test of the robustness scenarios.
#include "engine/run_outcome_class.hpp"

#include <algorithm>

#include "config/profile_names.hpp"
#include "engine/input_generation.hpp"
#include "engine/step_judgement.hpp"

namespace sbx::engine {

using nlohmann::json;

const char *outcome_name(OutcomeClass outcome) {
    switch (outcome) {
        case OutcomeClass::accepted:
            return "accepted";
        case OutcomeClass::rejected:
            return "rejected";
        case OutcomeClass::failed:
            return "failed";
        case OutcomeClass::hung:
            return "hung";
        case OutcomeClass::crashed:
            return "crashed";
    }
    return "failed";
}

const std::vector<OutcomeClass> &outcome_classes() {
    static const std::vector<OutcomeClass> values = {OutcomeClass::accepted, OutcomeClass::rejected,
                                                     OutcomeClass::crashed, OutcomeClass::hung,
                                                     OutcomeClass::failed};
    return values;
}

OutcomeClass worse(OutcomeClass a, OutcomeClass b) {
    return static_cast<int>(a) >= static_cast<int>(b) ? a : b;
}

bool has_sanitizer_report(const std::string &stderr_text) {
    static const char *const markers[] = {"ERROR: AddressSanitizer",   "ERROR: LeakSanitizer",
                                          "WARNING: MemorySanitizer",  "WARNING: ThreadSanitizer",
                                          "ERROR: HWAddressSanitizer", "runtime error: "};
    return std::any_of(std::begin(markers), std::end(markers), [&](const char *marker) {
        return stderr_text.find(marker) != std::string::npos;
    });
}

OutcomeClass classify_step(const config::Step &step, const json &result, bool met_expectation) {
    const RunStatus status = result_status(result);
    const auto stderr_text = result.find("stderr");
    // A sanitizer's report is a crash even when the exit code looks fine. An expected
    // signal (expect: {status: SG}) is what the step asks for, so it is accepted.
    if (stderr_text != result.end() && stderr_text->is_string() &&
        has_sanitizer_report(stderr_text->get_ref<const std::string &>())) {
        return OutcomeClass::crashed;
    }
    if (met_expectation) {
        return OutcomeClass::accepted;
    }
    if (status == RunStatus::signaled || status == RunStatus::out_of_memory) {
        return OutcomeClass::crashed;
    }
    if (status == RunStatus::timed_out) {
        return OutcomeClass::hung;
    }
    if (status == RunStatus::ok || status == RunStatus::runtime_error) {
        const int code = result.value("exit_code", -1);
        if (std::binary_search(step.reject_exit_codes.begin(), step.reject_exit_codes.end(),
                               code)) {
            return OutcomeClass::rejected;
        }
    }
    return OutcomeClass::failed;
}

bool is_robustness_preset(const presets::Preset &preset) {
    static const char *const strategies[] = {"hostile", "misuse", "legacy_schema"};
    for (const auto &id : strategy_chain(preset.body.value("SANDBOX_STUB_STRATEGY", json()))) {
        if (std::find(std::begin(strategies), std::end(strategies), id) != std::end(strategies)) {
            return true;
        }
    }
    static const char *const modes[] = {"hostile_input", "user_misuse", "schema_drift"};
    // FAILURE_MODES is a list or a comma-separated text, like a strategy chain.
    for (const auto &mode : strategy_chain(preset.body.value("FAILURE_MODES", json()))) {
        const auto canonical = config::canonical_profile_name(mode);
        if (canonical &&
            std::find(std::begin(modes), std::end(modes), *canonical) != std::end(modes)) {
            return true;
        }
    }
    return false;
}

}  // namespace sbx::engine
