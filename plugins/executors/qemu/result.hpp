// The uniform result schema (docs/abi.md), filled from the guest agent's report and
// classified by the local executor's rules, so a workflow scores the same under both.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "job_exchange.hpp"
#include "support/run_spec.hpp"

namespace sbx::qemu {

// status, exit_code, signal, limit, limits_hit, wall_s, cpu and memory figures, output.
void put_report(nlohmann::json &result, const AgentReport &report, const support::RunSpec &spec);

// XX with `message` in `error` and diagnostics.vm_error (and the boots tried).
void put_vm_error(nlohmann::json &result, const std::string &message, std::uint64_t attempts);

}  // namespace sbx::qemu
