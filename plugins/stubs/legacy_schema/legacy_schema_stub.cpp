// The `legacy_schema` stub strategy (schema drift): normal inputs whose JSON objects have
// fields renamed, dropped, retyped or added at SCHEMA_MISMATCHES out of SCHEMA_CHECKS.
#include <sbx/plugin.hpp>

#include "support/stub_request.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include <sbx/random.hpp>
#include "drift.hpp"
#include "support/number_parse.hpp"
#include "support/plain_values.hpp"

namespace {

using nlohmann::json;

constexpr uint64_t kDefaultMismatches = 5;
constexpr uint64_t kDefaultChecks = 100;

// A non-negative count from configuration or preset; presets may carry it as text.
uint64_t count_value(const json &value, const std::string &what) {
    if (value.is_number_unsigned()) {
        return value.get<uint64_t>();
    }
    if (value.is_string()) {
        const auto count = sbx::support::parse_uint64(value.get_ref<const std::string &>(),
                                                      sbx::support::LeadingPlus::refused);
        if (count) {
            return *count;
        }
    }
    throw sbx::Error(SBX_INVALID, "legacy_schema: " + what + " must be a non-negative integer");
}

std::string type_of(const json &slot) {
    const auto it = slot.is_object() ? slot.find("type") : slot.end();
    return it != slot.end() && it->is_string() ? it->get<std::string>() : "string";
}

json base_value(const std::string &name, const json &slot) {
    if (slot.is_object()) {
        for (const char *key : {"example", "default"}) {
            if (slot.contains(key)) {
                return slot[key];
            }
        }
    }
    return sbx::support::plain_value(slot.is_object() ? slot : json::object(), type_of(slot),
                                     "legacy_schema: slot '" + name + "'");
}

class LegacySchemaStub final : public sbx::StubStrategy {
  public:
    static constexpr sbx::About about{
        "legacy_schema",
        "Legacy schema inputs",
        "1.0.0",
        "Schema drift: normal inputs whose JSON objects have fields renamed, dropped, retyped "
        "or added, SCHEMA_MISMATCHES out of every SCHEMA_CHECKS fields (preset; default 5 of "
        "100), at least one per input set; meta lists every change.",
        R"({"type":"object","additionalProperties":false,"properties":{)"
        R"("default_mismatches":{"type":"integer","minimum":0},)"
        R"("default_checks":{"type":"integer","minimum":1}}})",
        "sandbox-runner",
        "https://example.invalid/sandbox-runner",
        "Apache-2.0"};

    explicit LegacySchemaStub(const std::string &config_json) {
        // sandbox-runner checks the schema first; this guards hosts that do not.
        const json config = sbx::support::parse_json(config_json, "legacy_schema", "configuration");
        if (!config.is_object()) {
            throw sbx::Error(SBX_INVALID, "legacy_schema: configuration must be an object");
        }
        for (const auto &[key, value] : config.items()) {
            if (key == "default_mismatches") {
                mismatches_ = count_value(value, key);
            } else if (key == "default_checks") {
                checks_ = count_value(value, key);
            } else {
                throw sbx::Error(SBX_INVALID,
                                 "legacy_schema: unknown configuration key '" + key + "'");
            }
        }
        rate_checked(mismatches_, checks_);
    }

    // Response: {"input_sets": [...], "meta": [{slot: [changes] | {"unchanged": why}}]},
    // parallel; meta names only JSON-typed slots, the only ones drift touches.
    std::string generate(const std::string &request_json) override {
        const auto request = sbx::support::read_request(request_json, "legacy_schema");
        const json &slots = request.slots;
        const json preset = request.body.value("preset", json::object());
        if (!preset.is_null() && !preset.is_object()) {
            throw sbx::Error(SBX_INVALID, "legacy_schema: preset must be an object");
        }
        uint64_t mismatches = mismatches_;
        uint64_t checks = checks_;
        if (preset.is_object()) {
            if (preset.contains("SCHEMA_MISMATCHES")) {
                mismatches = count_value(preset["SCHEMA_MISMATCHES"], "SCHEMA_MISMATCHES");
            }
            if (preset.contains("SCHEMA_CHECKS")) {
                checks = count_value(preset["SCHEMA_CHECKS"], "SCHEMA_CHECKS");
            }
        }
        rate_checked(mismatches, checks);

        json base = json::object();
        std::vector<std::string> json_slots;  // name order: nlohmann objects are sorted
        for (const auto &[name, slot] : slots.items()) {
            base[name] = base_value(name, slot);
            if (type_of(slot) == "json") {
                json_slots.push_back(name);
            }
        }
        sbx::SplitMix64 rng(request.seed);
        sbx_legacy::Quota quota(mismatches, checks);
        json sets = json::array();
        json meta = json::array();
        const uint64_t count = request.count;
        for (uint64_t j = 0; j < count; ++j) {
            if ((j & 0x3FFU) == 0x3FFU && sbx::host::cancelled()) {
                throw sbx::Error(SBX_CANCELLED, "legacy_schema: cancelled");
            }
            json set = request.chained(j, base);
            json changes = json::object();
            drift_set(set, changes, json_slots, quota, rng);
            sets.push_back(std::move(set));
            meta.push_back(std::move(changes));
        }
        return json{{"input_sets", std::move(sets)}, {"meta", std::move(meta)}}.dump();
    }

  private:
    static void rate_checked(uint64_t mismatches, uint64_t checks) {
        if (checks == 0 || mismatches > checks) {
            throw sbx::Error(SBX_INVALID,
                             "legacy_schema: need 0 <= SCHEMA_MISMATCHES <= SCHEMA_CHECKS, "
                             "SCHEMA_CHECKS >= 1");
        }
    }

    static void drift_set(json &set, json &changes, const std::vector<std::string> &json_slots,
                          sbx_legacy::Quota &quota, sbx::SplitMix64 &rng) {
        std::vector<std::string> objects;
        bool changed = false;
        for (const std::string &name : json_slots) {
            if (!set[name].is_object()) {
                // Only an object has fields to drift; anything else passes as it is.
                changes[name] = {{"unchanged", "value is not a JSON object"}};
                continue;
            }
            objects.push_back(name);
            changes[name] = sbx_legacy::drift_object(set[name], quota, rng);
            changed = changed || !changes[name].empty();
        }
        // At least one mismatch per set: a set the quota skipped would test nothing.
        if (!changed && !objects.empty()) {
            const std::string &name = objects[rng.below(objects.size())];
            changes[name].push_back(sbx_legacy::force_change(set[name], rng));
        }
    }

    uint64_t mismatches_ = kDefaultMismatches;
    uint64_t checks_ = kDefaultChecks;
};

}  // namespace

SBX_PLUGIN(LegacySchemaStub);
