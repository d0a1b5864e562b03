// Judging one step's result: against its expectation, under the scenario's scoring. Also the
// check that an executor's result has the ABI's result shape, before anything reads it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "config/settings.hpp"
#include "engine/run_outcome_class.hpp"

namespace sbx::engine {

// Whether a step's result meets its expectation; fills `reason` when not.
bool meets_expectation(const config::Expectation &expect, const nlohmann::json &result,
                       std::string &reason);

// Throws EnvironmentError naming the executor when its result breaks the ABI's result
// schema (a plugin defect), so later code can read the fields without type surprises.
void check_executor_result(const nlohmann::json &result, const std::string &executor);

// The status a result names; executor_error (XX) when it names none it may (a result that
// passed check_executor_result always names one).
RunStatus result_status(const nlohmann::json &result);

// A copy's verdict and class.
struct Judgement {
    bool passed = false;
    OutcomeClass outcome = OutcomeClass::accepted;
};

// The counterfactual's no-op passes when it ran: its class says nothing about the target.
Judgement judge_counterfactual(const nlohmann::json &result);

// The expectation decides, except under a robustness scenario (`robustness`) with `scoring:
// robust`, where a clean rejection passes and a sanitizer's report fails. Sets `reason`.
Judgement judge(const config::Step &step, const config::Expectation &expect, bool robustness,
                const nlohmann::json &result, std::string &reason);

}  // namespace sbx::engine
