// Strict readers for the fields of the configuration and the run spec: each names the key it
// rejects and says what to write instead, so a bad request fails with SBX_INVALID, not a crash.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace sbx::support {

// Throws sbx::Error(SBX_INVALID, "<where>: <message>").
[[noreturn]] void invalid(const std::string &where, const std::string &message);

// A non-negative integer (JSON Schema's "integer": 3 and 3.0 both qualify).
std::uint64_t read_count(const nlohmann::json &value, const std::string &where);
// A finite, non-negative number.
double read_non_negative(const nlohmann::json &value, const std::string &where);
std::string read_string(const nlohmann::json &value, const std::string &where);
bool read_bool(const nlohmann::json &value, const std::string &where);
// A string that can cross execve(): no NUL byte inside.
std::string read_c_string(const nlohmann::json &value, const std::string &where);

}  // namespace sbx::support
