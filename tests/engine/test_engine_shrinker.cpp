// The shrinker's pieces with pure predicates (no processes): ddmin, values of every kind,
// fault keys, the budget, and which polyglot part a shrunk input belongs to.
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "engine/ddmin.hpp"
#include "engine/input_shrink.hpp"
#include "engine/shrinker.hpp"
#include "engine/shrunk_category.hpp"
#include <sbx/bytes_value.hpp>

namespace {

using nlohmann::json;
using sbx::engine::bytes_of;
using sbx::engine::bytes_value;
using sbx::engine::shrink_value;

bool has(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

TEST(Ddmin, FindsTheTwoItemsThatMatterInAThousand) {
    std::vector<int> items(1000);
    std::iota(items.begin(), items.end(), 0);
    int tests = 0;
    const auto kept = sbx::engine::ddmin<int>(items, [&](const std::vector<int> &candidate) {
        ++tests;
        const auto contains = [&](int wanted) {
            return std::find(candidate.begin(), candidate.end(), wanted) != candidate.end();
        };
        return contains(17) && contains(802);
    });
    EXPECT_EQ(kept, (std::vector<int>{17, 802}));
    // Far fewer than the 1000 single removals a one-by-one pass would make.
    EXPECT_LT(tests, 200);
}

TEST(Ddmin, KeepsASequenceWhoseEveryItemIsNeeded) {
    const std::vector<char> items = {'a', 'b', 'c'};
    const auto kept = sbx::engine::ddmin<char>(
        items, [](const std::vector<char> &candidate) { return candidate.size() == 3; });
    EXPECT_EQ(kept, items);
}

TEST(ShrinkValue, AStringKeepsOnlyTheTrigger) {
    const std::string text = std::string(3000, 'x') + "%n" + std::string(3000, 'y');
    const json shrunk = shrink_value(text, [](const json &candidate) {
        return candidate.is_string() && has(candidate.get<std::string>(), "%n");
    });
    EXPECT_EQ(shrunk, "%n");
}

TEST(ShrinkValue, Utf8TextShrinksByCodePointsAndOtherTextByBytes) {
    // The predicate refuses anything that is not whole code points, so a byte-wise cut
    // would be stuck; by code points the shrink reaches the one emoji that matters.
    const std::string emoji = "\xF0\x9F\x98\x80";
    const std::string text = "caf\xC3\xA9 " + emoji + " d\xC3\xA9j\xC3\xA0";
    const json shrunk = shrink_value(
        text, [&](const json &candidate) { return has(candidate.get<std::string>(), emoji); });
    EXPECT_EQ(shrunk, emoji);
    // Not UTF-8 (a lone 0xFF): shrunk byte by byte down to that byte.
    const json bytes_text = shrink_value(
        std::string("abc\xFF"
                    "def"),
        [](const json &candidate) { return has(candidate.get<std::string>(), "\xFF"); });
    EXPECT_EQ(bytes_text, "\xFF");
}

TEST(ShrinkValue, AJsonDocumentKeepsTheOneMemberThatMatters) {
    json document = {{"mode", "%n"}, {"list", json::array()}};
    for (int i = 0; i < 300; ++i) {
        document["field" + std::to_string(i)] = {{"a", i}, {"b", "some text " + std::to_string(i)}};
        document["list"].push_back(i);
    }
    int tests = 0;
    const json shrunk = shrink_value(document, [&](const json &candidate) {
        ++tests;
        return candidate.is_object() && candidate.value("mode", "") == "%n";
    });
    EXPECT_EQ(shrunk, (json{{"mode", "%n"}}));
    EXPECT_LT(tests, 80);
}

TEST(ShrinkValue, JsonTextInAStringShrinksAsStructureThenAsText) {
    json document = {{"mode", "%n"}, {"padding", std::string(1000, 'p')}};
    // A target that parses the text: the result stays a valid document.
    const json parsed = shrink_value(document.dump(), [](const json &candidate) {
        const json inner = json::parse(candidate.get<std::string>(), nullptr, false);
        return !inner.is_discarded() && inner.is_object() && inner.value("mode", "") == "%n";
    });
    EXPECT_EQ(parsed, R"({"mode":"%n"})");
    // A target that only looks for the text: less than a document is enough.
    const json grepped = shrink_value(document.dump(), [](const json &candidate) {
        return has(candidate.get<std::string>(), "%n");
    });
    EXPECT_EQ(grepped, "%n");
}

TEST(ShrinkValue, ArraysLoseElementsAndNestedContainersEmpty) {
    const json value = {1, {{"deep", {1, 2, 3}}}, "keep me", 4};
    const json shrunk = shrink_value(value, [](const json &candidate) {
        return candidate.dump().find("keep") != std::string::npos;
    });
    EXPECT_EQ(shrunk, json::array({"keep"}));
}

TEST(ShrinkValue, NumbersGoTowardZeroWithFewerDigitsAndKeepTheSignOnlyWhenNeeded) {
    const auto at_least = [](double bound) {
        return [bound](const json &candidate) { return candidate.get<double>() >= bound; };
    };
    EXPECT_EQ(shrink_value(98765, at_least(1000)), 1000);
    EXPECT_EQ(shrink_value(-98765, [](const json &c) { return c.get<double>() <= -250; }), -250);
    EXPECT_EQ(shrink_value(-98765, [](const json &c) { return c.get<double>() != 0; }), 1);
    EXPECT_EQ(shrink_value(3.14159, at_least(3.1)), 3.1);
    EXPECT_EQ(shrink_value(3.75, at_least(2)), 2);
    EXPECT_EQ(shrink_value(3.14159, [](const json &c) { return c.get<double>() > 3.1; }), 3.14);
    EXPECT_EQ(shrink_value(42, [](const json &) { return true; }), 0);
    EXPECT_EQ(shrink_value(true, [](const json &) { return true; }), false);
}

TEST(ShrinkValue, BytesValuesShrinkAsBytesAndKeepTheirForm) {
    const std::string bytes = std::string("header") + "\xC3\x28" + std::string(200, 'z');
    const json value = bytes_value(bytes);
    ASSERT_EQ(bytes_of(value), bytes);
    const json shrunk = shrink_value(value, [](const json &candidate) {
        const auto raw = bytes_of(candidate);
        return raw && has(*raw, "\xC3\x28");
    });
    EXPECT_EQ(shrunk, bytes_value("\xC3\x28"));
    EXPECT_EQ(shrunk["$bytes"], "wyg=");
    EXPECT_EQ(sbx::engine::escaped_bytes("\xC3\x28\n\\"), "\\xC3(\\n\\\\");
    // Only exactly {"$bytes": <standard base64>} is bytes.
    EXPECT_FALSE(bytes_of(json{{"$bytes", "wyg="}, {"x", 1}}));
    EXPECT_FALSE(bytes_of(json{{"$bytes", "wy-_"}}));
    EXPECT_FALSE(bytes_of(json{{"$bytes", "wyg"}}));
}

TEST(ShrinkFailure, DropsTheFaultKeyThatDoesNotMatterAndKeepsTheNamingKeys) {
    const json body = {{"SCENARIO_NAME", "mixed"},
                       {"SANDBOX_STUB_STRATEGY", "hostile"},
                       {"API_LATENCY_MS", 300},
                       {"UPSTREAM_FAILURES", 5},
                       {"FAILURE_MODES", "hostile_input,flaky_upstream,api_latency"}};
    const json inputs = {{"name", std::string(500, 'a') + "%n"}, {"n", 12345}};
    const auto result = sbx::engine::shrink_failure(
        inputs, body,
        [](const json &candidate_inputs, const json &candidate_body) {
            return candidate_body.contains("UPSTREAM_FAILURES") &&
                   has(candidate_inputs["name"].get<std::string>(), "%n");
        },
        500);
    ASSERT_TRUE(result.reproducible);
    EXPECT_TRUE(result.minimal);
    EXPECT_EQ(result.inputs, (json{{"name", "%n"}, {"n", 0}}));
    EXPECT_EQ(result.preset_body, (json{{"SCENARIO_NAME", "mixed"},
                                        {"SANDBOX_STUB_STRATEGY", "hostile"},
                                        {"UPSTREAM_FAILURES", 5},
                                        {"FAILURE_MODES", "hostile_input"}}));
    EXPECT_EQ(result.removed_fault_keys,
              (std::vector<std::string>{"API_LATENCY_MS", "FAILURE_MODES: flaky_upstream",
                                        "FAILURE_MODES: api_latency"}));
    EXPECT_EQ(sbx::engine::inputs_size(result.inputs), 3U);  // "%n" and 0
}

TEST(ShrinkFailure, NeverTriesACandidateTwiceAndStopsAtTheBudget) {
    const json inputs = {{"text", std::string(4000, 'q')}};
    std::vector<std::string> seen;
    int calls = 0;
    const auto result = sbx::engine::shrink_failure(
        inputs, json{{"SCENARIO_NAME", "x"}},
        [&](const json &candidate, const json &body) {
            ++calls;
            seen.push_back(sbx::engine::candidate_key(candidate, body));
            // Fails only while long: ddmin has far more to try than the budget allows.
            return candidate["text"].get<std::string>().size() > 3000;
        },
        30);
    EXPECT_TRUE(result.reproducible);
    EXPECT_FALSE(result.minimal);
    EXPECT_EQ(result.runs, 30);
    EXPECT_EQ(calls, 30);
    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(std::adjacent_find(seen.begin(), seen.end()), seen.end()) << "a candidate ran twice";
    EXPECT_GT(result.inputs["text"].get<std::string>().size(), 3000U);
    EXPECT_LT(result.inputs["text"].get<std::string>().size(), 4000U);
}

TEST(ShrinkFailure, AnOriginalThatNoLongerFailsIsNotReproducible) {
    const json inputs = {{"a", "b"}};
    const auto result = sbx::engine::shrink_failure(
        inputs, json::object(), [](const json &, const json &) { return false; }, 10);
    EXPECT_FALSE(result.reproducible);
    EXPECT_EQ(result.runs, 1);
    EXPECT_EQ(result.inputs, inputs);
}

json polyglot_meta() {
    return {{"category", "polyglot"},
            {"payload_index", 3},
            {"parts",
             {{"format_string", "%s%n%x"},
              {"path_traversal", "../../etc/passwd"},
              {"sql_injection", "' OR '1'='1"},
              {"long_format", "%n%n%n%n%n%n%n%n"},
              {"invalid_utf8", {{"$bytes", "wyg="}}}}}};
}

TEST(ShrunkCategory, NamesTheShortestPartThatHoldsTheShrunkForm) {
    const json meta = polyglot_meta();
    using sbx::engine::shrunk_category;
    EXPECT_EQ(shrunk_category(meta, "%n"), "format_string");  // shorter than long_format
    EXPECT_EQ(shrunk_category(meta, "../"), "path_traversal");
    EXPECT_EQ(shrunk_category(meta, "'"), "sql_injection");
    EXPECT_EQ(shrunk_category(meta, bytes_value("\xC3")), "invalid_utf8");
    // JSON values, and JSON text in a string: any string leaf or member name.
    EXPECT_EQ(shrunk_category(meta, json{{"mode", "%x"}}), "format_string");
    EXPECT_EQ(shrunk_category(meta, json{{"etc", 1}}), "path_traversal");
    EXPECT_EQ(shrunk_category(meta, R"({"q":"1'='1"})"), "sql_injection");
    // No part holds it, the shrunk value is empty, or the meta has no parts.
    EXPECT_EQ(shrunk_category(meta, "zzz"), "");
    EXPECT_EQ(shrunk_category(meta, ""), "");
    EXPECT_EQ(shrunk_category(json{{"category", "format_string"}, {"payload_index", 2}}, "%n"), "");
    EXPECT_EQ(shrunk_category(json(), "%n"), "");
}

}  // namespace
