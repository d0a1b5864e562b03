// Tests of the legacy_schema stub strategy: the real legacy_schema.so through the host's
// loader — the preset's mismatch rate, one change per set at least, meta that tells the truth.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>

#include "plugins/plugin.hpp"

namespace sbx::stubs_test {
namespace {

using nlohmann::json;

std::unique_ptr<plugins::Instance> legacy(const json &config = json::object()) {
    static const std::shared_ptr<plugins::Plugin> plugin =
        plugins::load_plugin(SBX_LEGACY_SCHEMA_PLUGIN);
    return plugin->create(config);
}

json generate(const json &request, const json &config = json::object()) {
    return json::parse(legacy(config)->generate(request.dump()));
}

// An object of `fields` fields of mixed types, as a JSON slot's example.
json wide_object(int fields) {
    json object = json::object();
    for (int i = 0; i < fields; ++i) {
        const std::string key = "field_" + std::to_string(100 + i);
        switch (i % 5) {
            case 0:
                object[key] = i;
                break;
            case 1:
                object[key] = "text" + std::to_string(i);
                break;
            case 2:
                object[key] = i % 2 == 0;
                break;
            case 3:
                object[key] = json::array({i});
                break;
            default:
                object[key] = nullptr;
                break;
        }
    }
    return object;
}

json request(const json &slots, int64_t count, int64_t seed = 1,
             const json &preset = json::object()) {
    return {{"slots", slots}, {"count", count}, {"seed", seed}, {"preset", preset}};
}

json json_slot(const json &example) {
    return {{"type", "json"}, {"example", example}};
}

// Replays the meta of one slot onto its original value; it must give the drifted value.
json replay(json object, const json &changes, const json &drifted) {
    for (const json &c : changes) {
        const auto field = c["field"].get<std::string>();
        const auto change = c["change"].get<std::string>();
        if (change == "renamed") {
            object[c["to"].get<std::string>()] = object[field];
            object.erase(field);
        } else if (change == "dropped") {
            EXPECT_TRUE(object.contains(field));
            object.erase(field);
        } else if (change == "retyped") {
            EXPECT_NE(c["from"], c["to"]);
            EXPECT_TRUE(drifted.contains(field));
            EXPECT_NE(drifted.value(field, json()), object[field]);  // really changed
            object[field] = drifted.value(field, json());
        } else {
            EXPECT_EQ(change, "added");
            EXPECT_FALSE(object.contains(field));
            object[field] = c["value"];
        }
    }
    return object;
}

TEST(LegacySchemaStub, RateFollowsPresetAndMetaMatchesChanges) {
    for (const auto &[mismatches, checks] :
         {std::pair{5, 100}, std::pair{20, 100}, std::pair{1, 3}}) {
        const json original = wide_object(40);
        const json preset = {{"SCHEMA_MISMATCHES", mismatches},
                             {"SCHEMA_CHECKS", std::to_string(checks)}};  // text, as env gives
        const json answer = generate(request({{"doc", json_slot(original)}}, 300, 9, preset));
        ASSERT_EQ(answer["input_sets"].size(), 300U);
        ASSERT_EQ(answer["meta"].size(), 300U);
        int64_t quota_changes = 0;
        int64_t all_changes = 0;
        for (std::size_t i = 0; i < 300; ++i) {
            const json &drifted = answer["input_sets"][i]["doc"];
            const json &changes = answer["meta"][i]["doc"];
            EXPECT_GE(changes.size(), 1U) << "set " << i;
            EXPECT_EQ(replay(original, changes, drifted), drifted) << "set " << i;
            for (const json &c : changes) {
                quota_changes += c.value("forced", false) ? 0 : 1;
                ++all_changes;
            }
        }
        // 300 sets of 40 fields are 12000 checks, whole blocks of every size used here, so
        // the quota is exact; forced changes for quota-free sets only add a little.
        const double rate = static_cast<double>(mismatches) / checks;
        EXPECT_EQ(quota_changes, std::llround(12000 * rate)) << mismatches;
        EXPECT_NEAR(static_cast<double>(all_changes) / 12000, rate, 0.1 * rate + 0.005);
    }
}

TEST(LegacySchemaStub, AllFourChangesOccur) {
    const json answer = generate(request({{"doc", json_slot(wide_object(20))}}, 200, 4));
    std::set<std::string> kinds;
    for (const json &meta : answer["meta"]) {
        for (const json &c : meta["doc"]) {
            kinds.insert(c["change"].get<std::string>());
        }
    }
    EXPECT_EQ(kinds, (std::set<std::string>{"renamed", "dropped", "retyped", "added"}));
}

TEST(LegacySchemaStub, SameSeedSameBytes) {
    const json req =
        request({{"doc", json_slot(wide_object(12))}, {"s", {{"type", "string"}}}}, 50, 77);
    const std::string once = legacy()->generate(req.dump());
    EXPECT_EQ(once, legacy()->generate(req.dump()));
    json other = req;
    other["seed"] = 78;
    EXPECT_NE(once, legacy()->generate(other.dump()));
}

TEST(LegacySchemaStub, AtLeastOneChangeEvenForSmallAndEmptyObjects) {
    const json slots = {{"empty", {{"type", "json"}}}, {"one", json_slot({{"a", 1}})}};
    const json answer = generate(request(slots, 30, 2, {{"SCHEMA_MISMATCHES", 0}}));
    for (std::size_t i = 0; i < 30; ++i) {
        const json &meta = answer["meta"][i];
        EXPECT_EQ(meta["empty"].size() + meta["one"].size(), 1U) << meta;
        EXPECT_EQ(replay(json::object(), meta["empty"], answer["input_sets"][i]["empty"]),
                  answer["input_sets"][i]["empty"]);
        EXPECT_EQ(replay({{"a", 1}}, meta["one"], answer["input_sets"][i]["one"]),
                  answer["input_sets"][i]["one"]);
    }
}

TEST(LegacySchemaStub, NonObjectsAndOtherSlotsPassUnchanged) {
    const json slots = {{"list", json_slot(json::array({1, 2}))},
                        {"text", {{"type", "string"}, {"example", "keep"}}},
                        {"n", {{"type", "int"}, {"default", 3}}}};
    const json answer = generate(request(slots, 3));
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(answer["input_sets"][i], (json{{"list", {1, 2}}, {"text", "keep"}, {"n", 3}}));
        EXPECT_EQ(answer["meta"][i],
                  (json{{"list", {{"unchanged", "value is not a JSON object"}}}}));
    }
}

TEST(LegacySchemaStub, ConfigDefaultsApplyWithoutPreset) {
    const json answer = generate(request({{"doc", json_slot(wide_object(10))}}, 100, 3),
                                 {{"default_mismatches", 1}, {"default_checks", 2}});
    std::size_t changes = 0;
    for (const json &meta : answer["meta"]) {
        changes += meta["doc"].size();
    }
    EXPECT_EQ(changes, 500U);  // 1000 checks at 1 in 2, every set already has one
}

TEST(LegacySchemaStub, CountZeroGivesNoSets) {
    EXPECT_EQ(generate(request({{"doc", json_slot(wide_object(3))}}, 0)),
              (json{{"input_sets", json::array()}, {"meta", json::array()}}));
}

TEST(LegacySchemaStub, MalformedRequestsAndConfigsAreInvalid) {
    for (const char *bad : {R"({"count":-1})", R"({"count":"3"})", R"({"count":1.5})",
                            R"({"slots":[],"count":1})", R"({"seed":"x","count":1})", R"([1])",
                            R"({"count":)", R"({"count":1,"preset":{"SCHEMA_CHECKS":0}})",
                            R"({"count":1,"preset":{"SCHEMA_MISMATCHES":6,"SCHEMA_CHECKS":5}})",
                            R"({"count":1,"preset":{"SCHEMA_MISMATCHES":"five"}})",
                            R"({"count":1,"preset":{"SCHEMA_MISMATCHES":-1}})"}) {
        try {
            legacy()->generate(bad);
            ADD_FAILURE() << "accepted " << bad;
        } catch (const plugins::PluginCallError &e) {
            EXPECT_EQ(e.status(), SBX_INVALID) << bad << ": " << e.what();
        }
    }
    for (const json &config : {json{{"other", 1}}, json{{"default_checks", 0}}, json::array()}) {
        EXPECT_ANY_THROW(legacy(config)) << config;
    }
}

}  // namespace
}  // namespace sbx::stubs_test
