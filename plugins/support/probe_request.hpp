// The host's probe before a matrix: a prepare request with "probe": true, sent once per preset
// (engine/injector_preflight). The injector checks what it can without acting (the preset's
// values, that this machine can make the fault) and answers probe_answer(); it prepares
// nothing, so there is no teardown. A refusal is a thrown SBX_INVALID or SBX_UNSUPPORTED.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace sbx::support {

inline bool is_probe(const nlohmann::json &request) {
    const auto probe = request.find("probe");
    return probe != request.end() && probe->is_boolean() && probe->get<bool>();
}

inline std::string probe_answer(bool active) {
    return active ? R"({"probe":true,"active":true,"state":null})"
                  : R"({"probe":true,"active":false,"state":null})";
}

}  // namespace sbx::support
