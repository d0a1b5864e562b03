// Reading the parts of a stub request every built-in strategy shares: JSON text, the seed.
// Errors are SBX_INVALID naming the strategy, as the sbx.stub/1 contract asks.
#pragma once

#include <sbx/plugin.hpp>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace sbx::support {

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

// The fields of an sbx.stub/1 request every strategy reads, checked once: a malformed
// request is SBX_INVALID naming the strategy and the field.
struct StubRequest {
    nlohmann::json body;   // the whole request object (preset and the rest)
    uint64_t count = 1;    // input sets to produce
    uint64_t seed = 0;     // 0 when absent
    nlohmann::json slots;  // always an object (empty when absent or null)
    // In a chain ("faker,misuse"), the sets of the strategy before this one, which an
    // altering strategy (misuse, legacy_schema, hostile) alters instead of its own base
    // values; null when absent. When present: an array of `count` objects.
    nlohmann::json input_sets;

    // Set j of the chain overlaid on `base` (the strategy's own values): the chain's values
    // win, slots it lacks keep the base value.
    [[nodiscard]] nlohmann::json chained(uint64_t j, nlohmann::json base) const {
        if (input_sets.is_array() && j < input_sets.size()) {
            for (const auto &[name, value] : input_sets[j].items()) {
                base[name] = value;
            }
        }
        return base;
    }
};

inline StubRequest read_request(const std::string &text, const char *strategy) {
    StubRequest request;
    request.body = parse_json(text, strategy, "request");
    if (!request.body.is_object()) {
        throw sbx::Error(SBX_INVALID, std::string(strategy) + ": request must be an object");
    }
    const nlohmann::json count = request.body.value("count", nlohmann::json(1));
    if (!count.is_number_integer() || count.get<int64_t>() < 0) {
        throw sbx::Error(SBX_INVALID,
                         std::string(strategy) + ": count must be a non-negative integer");
    }
    request.count = count.get<uint64_t>();
    request.seed = seed_of(request.body, strategy);
    request.slots = request.body.value("slots", nlohmann::json::object());
    if (request.slots.is_null()) {
        request.slots = nlohmann::json::object();
    }
    if (!request.slots.is_object()) {
        throw sbx::Error(SBX_INVALID, std::string(strategy) + ": slots must be an object");
    }
    request.input_sets = request.body.value("input_sets", nlohmann::json());
    if (!request.input_sets.is_null()) {
        bool valid = request.input_sets.is_array() && request.input_sets.size() == request.count;
        for (const auto &set : valid ? request.input_sets : nlohmann::json::array()) {
            valid = valid && set.is_object();
        }
        if (!valid) {
            throw sbx::Error(SBX_INVALID, std::string(strategy) +
                                              ": input_sets must be a list of `count` objects "
                                              "(the sets of the strategy before this one)");
        }
    }
    return request;
}

// Built-in strategies without settings: anything but {} is refused, also when run by
// hosts other than sandbox-runner, which may not check the schema first.
inline void require_empty_config(const std::string &config_json, const char *strategy) {
    const nlohmann::json config = parse_json(config_json, strategy, "configuration");
    if (!config.is_object() || !config.empty()) {
        throw sbx::Error(SBX_INVALID,
                         std::string(strategy) + ": configuration must be an empty object");
    }
}

}  // namespace sbx::support
