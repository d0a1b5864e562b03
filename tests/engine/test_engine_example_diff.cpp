// Shrinking toward a json slot's example: the changes between the example and a failing
// document, applying any subset of them, and the shrinker keeping the fewest changes that
// still fail (with pure predicates: no processes).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/example_diff.hpp"
#include "engine/shrinker.hpp"

namespace {

using nlohmann::json;
using sbx::engine::changes_between;
using sbx::engine::with_changes;

// The example the tests edit: a flag, a number, a list and a nested object.
const json &example() {
    static const json document = json::parse(
        R"({"id": 42, "admin": false, "tags": ["new", "gift"], "shipping": {"method": "post", "days": 2}})");
    return document;
}

std::vector<std::string> labels(const std::vector<sbx::engine::DocumentChange> &changes) {
    std::vector<std::string> out;
    out.reserve(changes.size());
    for (const auto &change : changes) {
        out.push_back(change.label);
    }
    return out;
}

TEST(ExampleDiff, EveryKindOfChangeIsOneNamedChange) {
    json document = example();
    document["admin"] = true;
    document["tags"].push_back("");
    document["shipping"].erase("days");
    document["debug"] = true;
    const auto changes = changes_between(example(), document);
    EXPECT_EQ(labels(changes), (std::vector<std::string>{"admin false→true", "shipping −days",
                                                         "tags +\"\"", "(document) +debug: true"}));
    EXPECT_EQ(with_changes(example(), changes), document);
    EXPECT_TRUE(changes_between(example(), example()).empty());
}

TEST(ExampleDiff, AnySubsetAppliesAndTrailingElementsComeAndGo) {
    json document = example();
    document["tags"] = {"new"};
    document["id"] = -1;
    const auto changes = changes_between(example(), document);
    ASSERT_EQ(changes.size(), 2U);
    json only_id = example();
    only_id["id"] = -1;
    EXPECT_EQ(with_changes(example(), {changes[0]}), only_id);
    json only_tags = example();
    only_tags["tags"] = {"new"};
    EXPECT_EQ(with_changes(example(), {changes[1]}), only_tags);
    // Appended elements without the ones before them are still appended.
    json longer = example();
    longer["tags"] = {"new", "gift", "a", "b"};
    const auto appended = changes_between(example(), longer);
    ASSERT_EQ(appended.size(), 2U);
    EXPECT_EQ(with_changes(example(), {appended[1]})["tags"], (json{"new", "gift", "b"}));
}

TEST(ExampleDiff, DocumentsAreObjectsArraysOrTheTextOfOne) {
    EXPECT_EQ(sbx::engine::document_of(json("{\"a\": 1}")), json({{"a", 1}}));
    EXPECT_EQ(sbx::engine::document_of(json::array({1})), json::array({1}));
    EXPECT_FALSE(sbx::engine::document_of(json("%n%n")));
    EXPECT_FALSE(sbx::engine::document_of(json("{\"a\": ")));
    EXPECT_FALSE(sbx::engine::document_of(json{{"$bytes", "AA=="}}));
}

// The example with admin flipped, id 0, the tags emptied and the days past 2^31.
json four_changes() {
    json failing = example();
    failing["admin"] = true;
    failing["id"] = 0;
    failing["tags"] = json::array();
    failing["shipping"]["days"] = 2147483648LL;
    return failing;
}

TEST(ShrinkTowardExample, TheFewestChangesThatFailAreKeptAndNamed) {
    const json failing = four_changes();
    const json inputs = {{"order", failing.dump()}, {"name", "x"}};
    int runs = 0;
    // Fails when admin is true and the tags are empty, whatever else.
    const auto fails = [&](const json &candidate, const json &) {
        ++runs;
        const json order = json::parse(candidate["order"].get<std::string>());
        return order["admin"] == true && order["tags"].empty();
    };
    const auto result =
        sbx::engine::shrink_failure(inputs, json::object(), fails, 100, {{"order", example()}});
    ASSERT_TRUE(result.reproducible);
    EXPECT_TRUE(result.minimal);
    EXPECT_EQ(result.broken_by.at("order"),
              (std::vector<std::string>{"admin false→true", "tags −[1]", "tags −[0]"}));
    json expected = example();
    expected["admin"] = true;
    expected["tags"] = json::array();
    ASSERT_TRUE(result.inputs["order"].is_string()) << "the value keeps its form";
    EXPECT_EQ(json::parse(result.inputs["order"].get<std::string>()), expected);
    EXPECT_EQ(result.inputs["name"], "") << "the other slots shrink as before";
    EXPECT_LT(runs, 30);
}

TEST(ShrinkTowardExample, AFailureTheChangesDoNotMakeShrinksAsBefore) {
    // The failure needs the document's text (a key written twice), which parsing loses.
    const std::string text = R"({"id":42,"id":42,"admin":false})";
    const json inputs = {{"order", text}};
    const auto fails = [](const json &candidate, const json &) {
        const std::string order = candidate["order"].get<std::string>();
        return order.find("\"id\":42,\"id\"") != std::string::npos;
    };
    const auto result =
        sbx::engine::shrink_failure(inputs, json::object(), fails, 200, {{"order", example()}});
    EXPECT_TRUE(result.broken_by.empty());
    EXPECT_NE(result.inputs["order"].get<std::string>().find("\"id\":42,\"id\""),
              std::string::npos);
}

TEST(ShrinkTowardExample, ABudgetSpentInsideNamesTheChangesOfWhatItLeaves) {
    const json failing = four_changes();
    const json inputs = {{"order", failing.dump()}};
    const auto fails = [](const json &candidate, const json &) {
        return json::parse(candidate["order"].get<std::string>())["admin"] == true;
    };
    // The original, every change at once, then ddmin's first halves: cut short.
    const auto result =
        sbx::engine::shrink_failure(inputs, json::object(), fails, 4, {{"order", example()}});
    ASSERT_TRUE(result.reproducible);
    EXPECT_FALSE(result.minimal);
    const auto left = sbx::engine::changes_between(
        example(), json::parse(result.inputs["order"].get<std::string>()));
    ASSERT_FALSE(result.broken_by.empty()) << "the changes of the input it leaves, named";
    std::vector<std::string> labels;
    labels.reserve(left.size());
    for (const auto &change : left) {
        labels.push_back(change.label);
    }
    EXPECT_EQ(result.broken_by.at("order"), labels);
    EXPECT_LT(labels.size(), sbx::engine::changes_between(example(), failing).size());
}

}  // namespace
