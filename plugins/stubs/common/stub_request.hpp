// Reading the parts of a stub request every built-in strategy shares: JSON text, the seed.
// Errors are SBX_INVALID naming the strategy, as the sbx.stub/1 contract asks.
#pragma once

#include <sbx/plugin.hpp>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace sbx_stubs {

inline nlohmann::json parse_json(const std::string &text, const char *strategy, const char *what) {
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception &e) {
        throw sbx::Error(SBX_INVALID,
                         std::string(strategy) + ": " + what + " is not JSON: " + e.what());
    }
}

// The request's seed (0 when absent). Negative seeds map by two's complement, so they are
// as distinct as positive ones.
inline uint64_t seed_of(const nlohmann::json &request, const char *strategy) {
    const auto it = request.find("seed");
    if (it == request.end() || it->is_null()) {
        return 0;
    }
    if (it->is_number_unsigned()) {
        return it->get<uint64_t>();
    }
    if (it->is_number_integer()) {
        return static_cast<uint64_t>(it->get<int64_t>());
    }
    throw sbx::Error(SBX_INVALID, std::string(strategy) + ": seed must be an integer");
}

}  // namespace sbx_stubs
