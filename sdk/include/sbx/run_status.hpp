// The status of one run, as an executor's result names it in its "status" field: the
// two-letter codes of the result schema (docs/abi.md), read once into an enum so that no
// one compares the codes as strings. Header-only, for the host and plugins alike.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace sbx {

enum class RunStatus {
    ok,              // OK: exited 0
    runtime_error,   // RE: exited non-zero
    signaled,        // SG: ended by a signal
    timed_out,       // TO: ended by the timeout
    out_of_memory,   // OOM: ended by the memory limit
    executor_error,  // XX: the executor could not run it
};

// Every status, in the schema's order.
inline constexpr std::array<RunStatus, 6> kRunStatuses = {
    RunStatus::ok,        RunStatus::runtime_error, RunStatus::signaled,
    RunStatus::timed_out, RunStatus::out_of_memory, RunStatus::executor_error};

// "OK, RE, SG, TO, OOM, XX", for messages that list the valid codes.
inline constexpr std::string_view kRunStatusCodes = "OK, RE, SG, TO, OOM, XX";

// The code of `status`: "OK", "RE", "SG", "TO", "OOM" or "XX".
constexpr std::string_view status_code(RunStatus status) {
    switch (status) {
        case RunStatus::ok:
            return "OK";
        case RunStatus::runtime_error:
            return "RE";
        case RunStatus::signaled:
            return "SG";
        case RunStatus::timed_out:
            return "TO";
        case RunStatus::out_of_memory:
            return "OOM";
        case RunStatus::executor_error:
            return "XX";
    }
    return "XX";
}

// The status whose code is `code`; nullopt for anything else (codes are upper case).
constexpr std::optional<RunStatus> parse_run_status(std::string_view code) {
    for (const RunStatus status : kRunStatuses) {
        if (status_code(status) == code) {
            return status;
        }
    }
    return std::nullopt;
}

}  // namespace sbx
