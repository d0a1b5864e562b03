// Tests of the signature stub strategy: the real signature.so through the host's loader —
// defaults before examples, zero values by type, identical sets, malformed requests refused.
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "plugins/plugin.hpp"

namespace sbx::stubs_test {
namespace {

using nlohmann::json;

std::unique_ptr<plugins::Instance> signature() {
    static const std::shared_ptr<plugins::Plugin> plugin =
        plugins::load_plugin(SBX_SIGNATURE_PLUGIN);
    return plugin->create(json::object());
}

json generate(const json &request) {
    return json::parse(signature()->generate(request.dump()));
}

json request(const json &slots, int64_t count, int64_t seed = 1) {
    return {{"slots", slots}, {"count", count}, {"seed", seed}, {"preset", json::object()}};
}

TEST(SignatureStub, ZeroValuesByType) {
    const json slots = {
        {"s", {{"type", "string"}}}, {"i", {{"type", "int"}, {"min", 5}}},
        {"f", {{"type", "float"}}},  {"b", {{"type", "bool"}}},
        {"j", {{"type", "json"}}},   {"p", {{"type", "path"}}},
        {"e", {{"type", "email"}}},  {"u", {{"type", "url"}}},
        {"n", {{"type", "name"}}},   {"d", {{"type", "date"}}},
        {"y", {{"type", "bytes"}}},  {"m", {{"type", "enum"}, {"values", {"x", "y"}}}},
        {"untyped", json::object()}};
    const json set = generate(request(slots, 1))["input_sets"][0];
    // min is a bound for random values, not a default: the zero value ignores it.
    const json expected = {
        {"s", ""}, {"i", 0},   {"f", 0.0},     {"b", false}, {"j", json::object()},
        {"p", ""}, {"e", ""},  {"u", ""},      {"n", ""},    {"d", "1970-01-01"},
        {"y", ""}, {"m", "x"}, {"untyped", ""}};
    EXPECT_EQ(set, expected);
    EXPECT_TRUE(set["f"].is_number_float());
    EXPECT_TRUE(set["i"].is_number_integer());
}

TEST(SignatureStub, DefaultBeforeExampleBeforeZero) {
    const json slots = {{"both", {{"type", "int"}, {"default", 7}, {"example", 9}}},
                        {"example_only", {{"type", "string"}, {"example", "hi"}}},
                        {"default_only", {{"type", "json"}, {"default", {{"a", 1}}}}}};
    const json set = generate(request(slots, 1))["input_sets"][0];
    EXPECT_EQ(set, (json{{"both", 7}, {"example_only", "hi"}, {"default_only", {{"a", 1}}}}));
}

TEST(SignatureStub, SameSetRepeatedAndSeedIrrelevant) {
    const json slots = {{"s", {{"type", "string"}, {"example", "x"}}}, {"i", {{"type", "int"}}}};
    const std::string once = signature()->generate(request(slots, 5, 1).dump());
    EXPECT_EQ(once, signature()->generate(request(slots, 5, 1).dump()));
    EXPECT_EQ(once, signature()->generate(request(slots, 5, 99).dump()));
    const json sets = json::parse(once)["input_sets"];
    ASSERT_EQ(sets.size(), 5U);
    for (const json &set : sets) {
        EXPECT_EQ(set, sets[0]);
    }
}

TEST(SignatureStub, CountZeroAndNoSlots) {
    EXPECT_EQ(generate(request({{"s", {{"type", "string"}}}}, 0)),
              (json{{"input_sets", json::array()}}));
    EXPECT_EQ(generate({{"count", 2}}),
              (json{{"input_sets", json::array({json::object(), json::object()})}}));
    EXPECT_EQ(generate(json::object())["input_sets"].size(), 1U);
}

TEST(SignatureStub, MalformedRequestsAreInvalid) {
    for (const char *bad :
         {R"({"count":-1})", R"({"count":"3"})", R"({"count":1.5})", R"({"slots":[],"count":1})",
          R"({"seed":"x","count":1})", R"([1])", R"({"count":)"}) {
        try {
            signature()->generate(bad);
            ADD_FAILURE() << "accepted " << bad;
        } catch (const plugins::PluginCallError &e) {
            EXPECT_EQ(e.status(), SBX_INVALID) << bad << ": " << e.what();
        }
    }
}

TEST(SignatureStub, ListZeroValueIsNoArguments) {
    const json slots = {{"none", {{"type", "list"}}},
                        {"given", {{"type", "list"}, {"default", {"-v"}}}}};
    EXPECT_EQ(generate(request(slots, 1))["input_sets"][0],
              (json{{"none", json::array()}, {"given", {"-v"}}}));
}

}  // namespace
}  // namespace sbx::stubs_test
