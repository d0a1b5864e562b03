// Strict readers for configuration and run-spec fields. Rationale: the host validates the
// configuration against the schema, but a run spec arrives unchecked, so both are read here.
#include "json_fields.hpp"

#include <sbx/plugin.hpp>

#include <cmath>
#include <limits>

namespace sbx::support {

void invalid(const std::string &where, const std::string &message) {
    throw Error(SBX_INVALID, where + ": " + message);
}

std::uint64_t read_count(const nlohmann::json &value, const std::string &where) {
    if (value.is_number_unsigned()) {
        return value.get<std::uint64_t>();
    }
    if (value.is_number_integer()) {
        const auto signed_value = value.get<std::int64_t>();
        if (signed_value < 0) {
            invalid(where, "must not be negative, got " + std::to_string(signed_value));
        }
        return static_cast<std::uint64_t>(signed_value);
    }
    if (value.is_number_float()) {
        const double number = value.get<double>();
        // 2^64 is exactly representable; anything at or above it does not fit.
        if (std::isfinite(number) && number >= 0 && number == std::floor(number) &&
            number < 18446744073709551616.0) {
            return static_cast<std::uint64_t>(number);
        }
    }
    invalid(where, "must be a non-negative integer, got " + value.dump());
}

double read_non_negative(const nlohmann::json &value, const std::string &where) {
    if (!value.is_number()) {
        invalid(where, "must be a number, got " + value.dump());
    }
    const double number = value.get<double>();
    if (!std::isfinite(number) || number < 0) {
        invalid(where, "must be a finite number >= 0, got " + value.dump());
    }
    return number;
}

std::string read_string(const nlohmann::json &value, const std::string &where) {
    if (!value.is_string()) {
        invalid(where, "must be a string, got " + value.dump());
    }
    return value.get<std::string>();
}

bool read_bool(const nlohmann::json &value, const std::string &where) {
    if (!value.is_boolean()) {
        invalid(where, "must be true or false, got " + value.dump());
    }
    return value.get<bool>();
}

std::string read_c_string(const nlohmann::json &value, const std::string &where) {
    std::string text = read_string(value, where);
    if (text.find('\0') != std::string::npos) {
        invalid(where, "contains a NUL byte, which cannot be passed to a program");
    }
    return text;
}

}  // namespace sbx::support
