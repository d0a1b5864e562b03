// Shared helpers of the faker stub tests: the real faker.so through the host's loader, and
// requests as the host's cell runner sends them.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "plugins/plugin.hpp"

namespace sbx::stubs_test {

using nlohmann::json;

inline std::unique_ptr<plugins::Instance> faker(const json &config = json::object()) {
    static const std::shared_ptr<plugins::Plugin> plugin = plugins::load_plugin(SBX_FAKER_PLUGIN);
    return plugin->create(config);
}

inline json faker_request(const json &slots, int64_t count, int64_t seed = 1,
                          const json &preset = json::object()) {
    return {{"slots", slots}, {"count", count}, {"seed", seed}, {"preset", preset}};
}

inline std::string faker_text(const json &request, const json &config = json::object()) {
    return faker(config)->generate(request.dump());
}

inline json faker_json(const json &request, const json &config = json::object()) {
    return json::parse(faker_text(request, config));
}

// A slot as the host describes it: {type, required}, bounds as doubles.
inline json slot(const char *type) {
    return {{"type", type}, {"required", true}};
}

}  // namespace sbx::stubs_test
