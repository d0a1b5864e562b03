// Hostile requests at the edges: no sets, no slots, defaults, and malformed requests
// refused with SBX_INVALID rather than answered with a wrong number of sets.
#include "hostile_fixture.hpp"

namespace sbx::stubs_test {
namespace {

TEST(HostileRequests, CountZeroGivesNoSets) {
    auto stub = hostile();
    const json answer = generate(*stub, request({{"s", "string"}}, 0));
    EXPECT_EQ(answer["input_sets"], json::array());
    EXPECT_EQ(answer["meta"], json::array());
    EXPECT_FALSE(answer["categories"].empty()) << "what the slots could have received";
}

TEST(HostileRequests, NoSlotsGivesCountEmptySets) {
    auto stub = hostile();
    for (const json &req :
         {json{{"count", 3}, {"seed", 1}}, json{{"slots", json::object()}, {"count", 3}},
          json{{"slots", nullptr}, {"count", 3}}}) {
        const json answer = generate(*stub, req);
        EXPECT_EQ(answer["input_sets"],
                  json::array({json::object(), json::object(), json::object()}))
            << req;
        EXPECT_EQ(answer["meta"].size(), 3U);
    }
}

TEST(HostileRequests, MissingCountAndSeedDefaultToOneSetAndSeedZero) {
    auto stub = hostile();
    const json slots = {{"s", {{"type", "string"}}}};
    const json answer = generate(*stub, {{"slots", slots}});
    EXPECT_EQ(answer["input_sets"].size(), 1U);
    EXPECT_EQ(answer, generate(*stub, {{"slots", slots}, {"count", 1}, {"seed", 0}}));
}

TEST(HostileRequests, SlotsWithoutATypeAreText) {
    // Text: a string, or raw bytes a string cannot hold, never a number or a document.
    auto stub = hostile();
    const json answer =
        generate(*stub, {{"slots", {{"s", json::object()}, {"t", 5}}}, {"count", 50}});
    for (const json &set : answer["input_sets"]) {
        EXPECT_TRUE(set["s"].is_string() || set["s"].contains("$bytes")) << set["s"];
        EXPECT_TRUE(set["t"].is_string() || set["t"].contains("$bytes")) << set["t"];
    }
}

void expect_invalid(const std::string &request_text) {
    auto stub = hostile();
    try {
        stub->generate(request_text);
        ADD_FAILURE() << "accepted " << request_text;
    } catch (const plugins::PluginCallError &e) {
        EXPECT_EQ(e.status(), SBX_INVALID) << e.what();
    }
}

TEST(HostileRequests, MalformedRequestsAreInvalid) {
    expect_invalid(R"({"count":-1})");
    expect_invalid(R"({"count":"3"})");
    expect_invalid(R"({"count":1.5})");
    expect_invalid(R"({"slots":[],"count":1})");
    expect_invalid(R"({"seed":"x","count":1})");
    expect_invalid(R"({"count":)");
}

}  // namespace
}  // namespace sbx::stubs_test
