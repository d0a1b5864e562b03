// Why a step failed, in one line a person can act on: how the target ended (its exit code,
// the signal that killed it, the timeout, the executor's error) and the last lines it wrote
// to stderr. Reports carry it where only "status RE, expected OK" stood before.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace sbx::engine {

// "step 'fetch': exit code 3 (expected 0); stderr: curl: (7) Failed to connect ..." for a
// failed step's executor result; at most the last `stderr_lines` non-empty lines of stderr,
// each cut at 200 characters, control characters shown as \xNN. `reason` is the step's
// failure reason (what the expectation said), appended in parentheses when not already said.
std::string failure_detail(const std::string &step, const nlohmann::json &result,
                           const std::string &reason, int stderr_lines = 3);

// The last `lines` non-empty lines of `text`, joined with " | ", each bounded and escaped
// as above; "" when there are none.
std::string stderr_tail(const std::string &text, int lines);

}  // namespace sbx::engine
