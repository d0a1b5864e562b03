// Tests of the random stub strategy: the real random.so through the host's loader — seeded
// replay, values of the right type within bounds, and malformed requests refused.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>

#include "plugins/plugin.hpp"

namespace sbx::stubs_test {
namespace {

using nlohmann::json;

std::unique_ptr<plugins::Instance> random_stub() {
    static const std::shared_ptr<plugins::Plugin> plugin = plugins::load_plugin(SBX_RANDOM_PLUGIN);
    return plugin->create(json::object());
}

std::string generate_text(const json &request) {
    return random_stub()->generate(request.dump());
}

json generate(const json &request) {
    return json::parse(generate_text(request));
}

json request(const json &slots, int64_t count, int64_t seed = 1) {
    return {{"slots", slots}, {"count", count}, {"seed", seed}, {"preset", json::object()}};
}

// One slot of every type. A function, not a global: a json initializer may throw, and a
// global's would throw before main (cert-err58-cpp).
json all_types() {
    return {{"s", {{"type", "string"}}},
            {"i", {{"type", "int"}, {"min", -3}, {"max", 7}}},
            {"f", {{"type", "float"}, {"min", 0.5}, {"max", 0.75}}},
            {"b", {{"type", "bool"}}},
            {"j", {{"type", "json"}}},
            {"p", {{"type", "path"}}},
            {"e", {{"type", "email"}}},
            {"u", {{"type", "url"}}},
            {"n", {{"type", "name"}}},
            {"d", {{"type", "date"}}},
            {"y", {{"type", "bytes"}}},
            {"m", {{"type", "enum"}, {"values", {"red", 2, true}}}}};
}

TEST(RandomStub, SameSeedSameBytesOtherSeedOtherBytes) {
    const std::string once = generate_text(request(all_types(), 50, 7));
    EXPECT_EQ(once, generate_text(request(all_types(), 50, 7)));
    EXPECT_NE(once, generate_text(request(all_types(), 50, 8)));
    // A missing seed is seed 0.
    EXPECT_EQ(generate_text({{"slots", all_types()}, {"count", 3}}),
              generate_text(request(all_types(), 3, 0)));
}

// Pinned output: a change to the generator changes every recorded seed's inputs, and
// must be a deliberate, visible decision rather than a library upgrade.
TEST(RandomStub, GoldenOutputForAFixedSeed) {
    const json slots = {{"i", {{"type", "int"}, {"min", 0}, {"max", 1000000}}},
                        {"s", {{"type", "string"}, {"min", 4}, {"max", 4}}},
                        {"d", {{"type", "date"}}}};
    EXPECT_EQ(generate_text(request(slots, 2, 42)),
              R"({"input_sets":[{"d":"2037-03-14","i":749988,"s":"y/6u"},)"
              R"({"d":"2009-07-01","i":875008,"s":"6:}p"}]})");
}

TEST(RandomStub, ValuesHaveTheirTypeAndRespectBounds) {
    const std::regex date(R"((\d{4})-(\d{2})-(\d{2}))");
    const std::regex email(R"([a-z]{1,10}@[a-z]{2,10}\.(com|org|net|io))");
    const std::regex url(R"(https://[a-z]{2,10}\.(com|org|net|io)/[a-z]{0,10})");
    const std::regex name(R"([A-Z][a-z]{1,7} [A-Z][a-z]{1,7})");
    const std::regex path(R"([a-z]{1,8}/[a-z]{1,8}\.txt)");
    const std::regex hex(R"(([0-9a-f]{2}){0,32})");
    std::set<json> ints;
    std::set<json> enums;
    std::set<bool> bools;
    const json answer = generate(request(all_types(), 400, 3));
    ASSERT_EQ(answer["input_sets"].size(), 400U);
    for (const json &set : answer["input_sets"]) {
        const auto &s = set["s"].get_ref<const std::string &>();
        EXPECT_LE(s.size(), 32U);
        for (char c : s) {
            EXPECT_TRUE(c >= ' ' && c <= '~') << s;
        }
        ASSERT_TRUE(set["i"].is_number_integer());
        EXPECT_GE(set["i"].get<int64_t>(), -3);
        EXPECT_LE(set["i"].get<int64_t>(), 7);
        ints.insert(set["i"]);
        ASSERT_TRUE(set["f"].is_number_float());
        EXPECT_GE(set["f"].get<double>(), 0.5);
        EXPECT_LE(set["f"].get<double>(), 0.75);
        bools.insert(set["b"].get<bool>());
        ASSERT_TRUE(set["j"].is_object());
        EXPECT_LE(set["j"].size(), 4U);
        std::smatch m;
        const auto &d = set["d"].get_ref<const std::string &>();
        ASSERT_TRUE(std::regex_match(d, m, date)) << d;
        EXPECT_GE(std::stoi(m[1]), 1970);
        EXPECT_LE(std::stoi(m[1]), 2037);
        EXPECT_GE(std::stoi(m[2]), 1);
        EXPECT_LE(std::stoi(m[2]), 12);
        EXPECT_GE(std::stoi(m[3]), 1);
        EXPECT_LE(std::stoi(m[3]), 31);
        EXPECT_TRUE(std::regex_match(set["e"].get<std::string>(), email)) << set["e"];
        EXPECT_TRUE(std::regex_match(set["u"].get<std::string>(), url)) << set["u"];
        EXPECT_TRUE(std::regex_match(set["n"].get<std::string>(), name)) << set["n"];
        EXPECT_TRUE(std::regex_match(set["p"].get<std::string>(), path)) << set["p"];
        EXPECT_TRUE(std::regex_match(set["y"].get<std::string>(), hex)) << set["y"];
        enums.insert(set["m"]);
    }
    // Over 400 sets every value of a small range turns up: the bounds are reachable.
    EXPECT_EQ(ints.size(), 11U);
    EXPECT_EQ(enums, (std::set<json>{"red", 2, true}));
    EXPECT_EQ(bools.size(), 2U);
}

TEST(RandomStub, EdgeBounds) {
    const json slots = {{"fixed", {{"type", "int"}, {"min", 5}, {"max", 5}}},
                        {"full", {{"type", "int"}, {"min", INT64_MIN}, {"max", INT64_MAX}}},
                        {"above", {{"type", "int"}, {"min", 5000}}},
                        {"below", {{"type", "float"}, {"max", -5000.0}}},
                        {"fraction", {{"type", "int"}, {"min", 0.5}, {"max", 1.5}}},
                        {"len", {{"type", "string"}, {"min", 3}, {"max", 3}}},
                        {"no_values", {{"type", "enum"}}}};
    for (const json &set : generate(request(slots, 100, 11))["input_sets"]) {
        EXPECT_EQ(set["fixed"], 5);
        EXPECT_TRUE(set["full"].is_number_integer());
        EXPECT_GE(set["above"].get<int64_t>(), 5000);
        EXPECT_LE(set["below"].get<double>(), -5000.0);
        EXPECT_EQ(set["fraction"], 1);
        EXPECT_EQ(set["len"].get<std::string>().size(), 3U);
        EXPECT_EQ(set["no_values"], "");
    }
}

TEST(RandomStub, CountZeroAndNoSlots) {
    EXPECT_EQ(generate(request(all_types(), 0)), (json{{"input_sets", json::array()}}));
    EXPECT_EQ(generate({{"count", 2}}),
              (json{{"input_sets", json::array({json::object(), json::object()})}}));
}

TEST(RandomStub, MalformedRequestsAreInvalid) {
    for (const char *bad :
         {R"({"count":-1})", R"({"count":"3"})", R"({"count":1.5})", R"({"slots":[],"count":1})",
          R"({"seed":"x","count":1})", R"([1])", R"({"count":)",
          R"({"slots":{"i":{"type":"int","min":3,"max":2}},"count":0})",
          R"({"slots":{"f":{"type":"float","min":"low"}},"count":1})"}) {
        try {
            random_stub()->generate(bad);
            ADD_FAILURE() << "accepted " << bad;
        } catch (const plugins::PluginCallError &e) {
            EXPECT_EQ(e.status(), SBX_INVALID) << bad << ": " << e.what();
        }
    }
}

TEST(RandomStub, ListSlotsGetOneToThreePrintableTexts) {
    const json answer = generate(request({{"args", {{"type", "list"}}}}, 200, 4));
    std::set<std::size_t> sizes;
    for (const json &set : answer["input_sets"]) {
        const json &args = set["args"];
        ASSERT_TRUE(args.is_array()) << args;
        sizes.insert(args.size());
        for (const json &item : args) {
            ASSERT_TRUE(item.is_string()) << args;
            for (char c : item.get<std::string>()) {
                EXPECT_TRUE(c >= ' ' && c <= '~') << item;
            }
        }
    }
    EXPECT_EQ(sizes, (std::set<std::size_t>{1, 2, 3}));
}

}  // namespace
}  // namespace sbx::stubs_test
