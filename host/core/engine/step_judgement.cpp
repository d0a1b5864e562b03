#include "engine/step_judgement.hpp"

#include <cmath>
#include <limits>

#include "util/errors.hpp"

namespace sbx::engine {

using nlohmann::json;

namespace {

// A JSON number that is a whole number within int's range (3, -1, also 3.0).
bool is_int(const json &value) {
    constexpr auto kMin = std::numeric_limits<int>::min();
    constexpr auto kMax = std::numeric_limits<int>::max();
    if (value.is_number_unsigned()) {
        return value.get<uint64_t>() <= static_cast<uint64_t>(kMax);
    }
    if (value.is_number_integer()) {
        const auto number = value.get<int64_t>();
        return number >= kMin && number <= kMax;
    }
    if (value.is_number_float()) {
        const double number = value.get<double>();
        return number >= kMin && number <= kMax && std::trunc(number) == number;
    }
    return false;
}

}  // namespace

RunStatus result_status(const json &result) {
    const auto found = result.find("status");
    if (found == result.end() || !found->is_string()) {
        return RunStatus::executor_error;
    }
    return parse_run_status(found->get_ref<const std::string &>())
        .value_or(RunStatus::executor_error);
}

bool meets_expectation(const config::Expectation &expect, const json &result, std::string &reason) {
    const RunStatus status = result_status(result);
    if (status != expect.status) {
        reason = "status " + std::string(status_code(status)) + ", expected " +
                 std::string(status_code(expect.status));
        if (result.contains("error") && !result["error"].get<std::string>().empty()) {
            reason += " (" + result["error"].get<std::string>() + ")";
        }
        return false;
    }
    if (expect.exit_code && result.value("exit_code", -1) != *expect.exit_code) {
        reason = "exit code " + std::to_string(result.value("exit_code", -1)) + ", expected " +
                 std::to_string(*expect.exit_code);
        return false;
    }
    if (expect.stdout_contains &&
        result.value("stdout", "").find(*expect.stdout_contains) == std::string::npos) {
        reason = "stdout lacks '" + *expect.stdout_contains + "'";
        return false;
    }
    return true;
}

void check_executor_result(const json &result, const std::string &executor) {
    const auto fail = [&](const std::string &why) {
        throw EnvironmentError("executor '" + executor + "' returned a malformed result (" + why +
                               "); see docs/abi.md for the result fields");
    };
    if (!result.is_object()) {
        fail("not a JSON object");
    }
    if (!result.contains("status") || !result["status"].is_string() ||
        !parse_run_status(result["status"].get_ref<const std::string &>())) {
        fail("'status' must be one of " + std::string(kRunStatusCodes));
    }
    // Read as int later (expectations, outcome classes, the store): a number outside int's
    // range there is undefined behaviour (UBSan found it under tests/fuzz/fuzz_plugin_answers).
    for (const char *key : {"exit_code", "signal"}) {
        if (result.contains(key) && !is_int(result[key])) {
            fail(std::string("'") + key + "' must be a number, a whole one in int's range");
        }
    }
    for (const char *key :
         {"wall_s", "cpu_user_s", "cpu_sys_s", "max_rss_kb", "stdout_bytes", "stderr_bytes"}) {
        if (result.contains(key) && !result[key].is_number()) {
            fail(std::string("'") + key + "' must be a number");
        }
    }
    for (const char *key : {"stdout", "stderr", "error"}) {
        if (result.contains(key) && !result[key].is_string()) {
            fail(std::string("'") + key + "' must be a string");
        }
    }
}

Judgement judge_counterfactual(const json &result) {
    const bool ran = result_status(result) == RunStatus::ok;
    return {ran, ran ? OutcomeClass::accepted : OutcomeClass::failed};
}

Judgement judge(const config::Step &step, const config::Expectation &expect, bool robustness,
                const json &result, std::string &reason) {
    const bool met = meets_expectation(expect, result, reason);
    Judgement judged{met, classify_step(step, result, met)};
    if (!robustness) {
        return judged;
    }
    if (step.scoring == config::Scoring::strict) {
        if (judged.outcome == OutcomeClass::rejected) {
            reason += " (a declared rejection; the step asks for scoring: strict)";
        }
        return judged;
    }
    if (judged.outcome == OutcomeClass::rejected) {
        judged.passed = true;
        reason.clear();
    } else if (judged.outcome == OutcomeClass::crashed && met) {
        judged.passed = false;
        reason = "a sanitizer reported an error on stderr";
    }
    return judged;
}

}  // namespace sbx::engine
