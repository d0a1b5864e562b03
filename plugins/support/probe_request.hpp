// The host's probe before a matrix: a prepare request with "probe": true, sent once per preset
// (engine/injector_preflight). The injector checks what it can without acting (the preset's
// values, that this machine can make the fault) and answers probe_answer(); it prepares
// nothing, so there is no teardown. A refusal is a thrown SBX_INVALID or SBX_UNSUPPORTED.
//
// The answer's "claims" lists the preset's keys and failure modes this injector makes: the
// host refuses (exit 2) a fault of the user's own preset that no loaded injector claims,
// instead of running a matrix whose verdict rests on a fault that never happened.
#pragma once

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>

#include "support/preset_activation.hpp"

namespace sbx::support {

inline bool is_probe(const nlohmann::json &request) {
    const auto probe = request.find("probe");
    return probe != request.end() && probe->is_boolean() && probe->get<bool>();
}

inline std::string probe_answer(bool active) {
    return active ? R"({"probe":true,"active":true,"state":null})"
                  : R"({"probe":true,"active":false,"state":null})";
}

// Which of `keys` the preset sets (to anything) and which of `modes` its FAILURE_MODES lists.
inline nlohmann::json claimed(const nlohmann::json &preset,
                              std::initializer_list<const char *> keys,
                              std::initializer_list<const char *> modes) {
    nlohmann::json claims = nlohmann::json::array();
    for (const char *key : keys) {
        if (preset.contains(key) && !preset[key].is_null()) {
            claims.push_back(key);
        }
    }
    for (const char *mode : modes) {
        if (lists_failure_mode(preset, mode)) {
            claims.push_back(mode);
        }
    }
    return claims;
}

inline std::string probe_answer(bool active, const nlohmann::json &claims) {
    return nlohmann::json{
        {"probe", true}, {"active", active}, {"state", nullptr}, {"claims", claims}}
        .dump();
}

}  // namespace sbx::support
