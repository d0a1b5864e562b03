// The host's readers of a plugin's JSON answer: an executor's result is checked
// (check_executor_result: a malformed one is an EnvironmentError naming the executor), then
// read the way every run reads it: the step's expectation, its outcome class.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "engine/run_outcome_class.hpp"
#include "engine/workflow_runner.hpp"
#include "util/errors.hpp"

namespace {

sbx::config::Step step_with_rejects() {
    sbx::config::Step step;
    step.name = "fuzz";
    step.run = {"./target"};
    step.expect.exit_code = 0;
    step.expect.stdout_contains = "ok";
    step.reject_exit_codes = {2, 65};
    return step;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const auto result = nlohmann::json::parse(data, data + size, nullptr, false);
    if (result.is_discarded()) {
        return 0;  // the host's json::parse throws there, before any reader runs
    }
    try {
        sbx::engine::check_executor_result(result, "fuzz");
    } catch (const sbx::EnvironmentError &) {
        return 0;
    }
    static const sbx::config::Step step = step_with_rejects();
    std::string reason;
    const bool met = sbx::engine::meets_expectation(step.expect, result, reason);
    sbx::engine::classify_step(step, result, met);
    sbx::config::Expectation any_exit_code;
    any_exit_code.exit_code.reset();
    sbx::engine::meets_expectation(any_exit_code, result, reason);
    return 0;
}
