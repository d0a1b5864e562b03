// The fields every executor result has (docs/abi.md, "The result"), zeroed and status XX,
// so a run that never started reads like any other result. Shared with the docker executor,
// which compiles this file in, so both give the same schema.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace sbx::support {

nlohmann::json blank_result(const std::string &run_id);

}  // namespace sbx::support
