// Checks of the preset keys whose values carry units or must be numbers (MEMORY_LIMIT,
// TIMEOUT, CPU_LIMIT, PACKET_LOSS, ...), shared by every place that reads presets.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sbx::config {

// The preset keys this check knows a rule for.
const std::vector<std::string> &checked_preset_keys();

// Checks one preset value. Keys without a rule pass (presets may carry any key; unknown
// ones reach the target's environment unchanged). Throws sbx::UnitError whose problem()
// starts with the key ("MEMORY_LIMIT: '512XB' is not a size") and whose hint() says what
// to write. Strings and numbers are both accepted where a number is meant ("0.5" or 0.5).
// The names FAILURE_MODES accepts.
const std::vector<std::string> &known_failure_modes();

void check_preset_value(const std::string &key, const nlohmann::json &value);

}  // namespace sbx::config
