// Shared helpers of the hostile stub tests: the real hostile.so through the host's loader,
// requests built from slot types, and the meta sidecar read back per slot.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "plugins/plugin.hpp"

namespace sbx::stubs_test {

using nlohmann::json;

inline std::shared_ptr<plugins::Plugin> hostile_plugin() {
    static const std::shared_ptr<plugins::Plugin> plugin = plugins::load_plugin(SBX_HOSTILE_PLUGIN);
    return plugin;
}

inline std::unique_ptr<plugins::Instance> hostile(const json &config = json::object()) {
    return hostile_plugin()->create(config);
}

// {slots: {name: {type}}, count, seed} as the host's cell runner sends it.
inline json request(const std::map<std::string, std::string> &slot_types, int64_t count,
                    int64_t seed = 1) {
    json slots = json::object();
    for (const auto &[name, type] : slot_types) {
        slots[name] = {{"type", type}, {"required", true}};
    }
    return {{"slots", slots}, {"count", count}, {"seed", seed}, {"preset", json::object()}};
}

inline json generate(plugins::Instance &stub, const json &req) {
    return json::parse(stub.generate(req.dump()));
}

// Number of payloads in the catalogue: one text slot cycles through all of them, so the
// distinct indexes of a batch longer than the catalogue are the catalogue.
inline std::set<int64_t> payload_indexes(plugins::Instance &stub, int64_t batch = 2048) {
    const json answer = generate(stub, request({{"s", "string"}}, batch));
    std::set<int64_t> seen;
    for (const json &meta : answer["meta"]) {
        seen.insert(meta["s"]["payload_index"].get<int64_t>());
    }
    return seen;
}

// The categories slot `slot` received over a response.
inline std::set<std::string> categories_of(const json &answer, const std::string &slot) {
    std::set<std::string> seen;
    for (const json &meta : answer["meta"]) {
        seen.insert(meta[slot]["category"].get<std::string>());
    }
    return seen;
}

}  // namespace sbx::stubs_test
