// Structure-aware edits of json slots: the example's own fields changed one way at a time
// (flipped, zeroed, negative, emptied, a null last element, a key missing or written twice),
// each set's meta naming its edit, the program's own words tried as values and keys, and the
// document sent as exactly the text written.
#include "hostile_fixture.hpp"

#include <algorithm>

namespace sbx::stubs_test {
namespace {

constexpr const char *kOrder =
    R"({"id": 42, "admin": false, "price": 9.5, "user": "ada lovelace", "method": "post",)"
    R"( "tags": ["new", "gift"], "items": [{"sku": "A1"}], "shipping": {"days": 2}})";

json order_request(int64_t count, const json &words = json::array()) {
    json req = request({{"order", "json"}}, count);
    req["slots"]["order"]["example"] = kOrder;
    req["words"] = words;
    return req;
}

// Every set's edit label (single edits only) -> the set's document text.
std::map<std::string, std::string> singles(const json &answer) {
    std::map<std::string, std::string> out;
    for (std::size_t j = 0; j < answer["meta"].size(); ++j) {
        const json &meta = answer["meta"][j]["order"];
        if (meta.contains("edit")) {
            out.emplace(meta["edit"].get<std::string>(),
                        answer["input_sets"][j]["order"].get<std::string>());
        }
    }
    return out;
}

TEST(HostileStructure, EveryFieldGetsItsTypesEditsOneAtATimeEachNamed) {
    auto stub = hostile();
    const auto edits = singles(generate(*stub, order_request(600)));
    const json example = json::parse(kOrder);
    // Each single edit changes that one place and nothing else.
    const std::map<std::string, std::pair<std::string, json>> expected = {
        {"admin bool→true", {"/admin", true}},
        {"id int→0", {"/id", 0}},
        {"id int→-1", {"/id", -1}},
        {"id int→2147483648", {"/id", 2147483648LL}},
        {"price float→1e308", {"/price", 1e308}},
        {"user string→\"\"", {"/user", ""}},
        {"shipping.days int→0", {"/shipping/days", 0}},
        {"tags array+\"\"", {"/tags", {"new", "gift", ""}}},
        {"tags array→[]", {"/tags", json::array()}},
        {"items array+null", {"/items", {{{"sku", "A1"}}, nullptr}}},
    };
    for (const auto &[label, change] : expected) {
        const auto found = edits.find(label);
        ASSERT_NE(found, edits.end()) << label << " is not among the single edits";
        json want = example;
        want[json::json_pointer(change.first)] = change.second;
        EXPECT_EQ(json::parse(found->second), want) << label;
    }
    // A removed member, and a key written twice (which only text can carry).
    const auto removed = edits.find("shipping object−days");
    ASSERT_NE(removed, edits.end());
    EXPECT_EQ(json::parse(removed->second)["shipping"], json::object());
    const auto twice = edits.find("(document) object dup id");
    ASSERT_NE(twice, edits.end());
    EXPECT_NE(twice->second.find(R"("id":42,"id":42)"), std::string::npos) << twice->second;
}

TEST(HostileStructure, ExactNumbersReachTheProgramAsWritten) {
    auto stub = hostile();
    const auto edits = singles(generate(*stub, order_request(600)));
    const auto big = edits.find("id int→9223372036854775808");
    ASSERT_NE(big, edits.end());
    EXPECT_NE(big->second.find(R"("id":9223372036854775808)"), std::string::npos);
    const auto twenty = edits.find("id int→99999999999999999999");
    ASSERT_NE(twenty, edits.end());
    EXPECT_NE(twenty->second.find(R"("id":99999999999999999999)"), std::string::npos)
        << "every digit, not a double's rounding";
}

TEST(HostileStructure, TheFirstTriedSetsCarryAPayloadInFreeTextAndPackedEdits) {
    auto stub = hostile();
    // "post" is a code the program compares (it holds the word): payloads go elsewhere.
    const json answer = generate(*stub, order_request(13, {"courier", "post", "drone"}));
    std::set<std::string> fields;
    std::size_t packed = 0;
    for (std::size_t j = 0; j < 13; ++j) {
        const json &meta = answer["meta"][j]["order"];
        if (meta.contains("field")) {
            fields.insert(meta["field"].get<std::string>());
            packed += meta["edits"].size();
        }
    }
    EXPECT_EQ(answer["meta"][0]["order"]["field"], "user") << "the longest free text first";
    EXPECT_EQ(fields.count("method"), 0U) << "a compared code keeps its value";
    EXPECT_GE(fields.size(), 3U);
    EXPECT_GE(packed, 20U) << "about half of the other places edited in each set";
}

TEST(HostileStructure, TheProgramsWordsAreTriedNearestFirstAsValuesAndKeys) {
    auto stub = hostile();
    const json words = {"usage", "help", "version", "quiet", "input",   "output", "format",
                        "level", "mode", "color",   "post",  "courier", "drone",  "debug"};
    const json answer = generate(*stub, order_request(400, words));
    std::vector<std::string> method_values;
    bool debug_key = false;
    for (const json &meta : answer["meta"]) {
        const std::string edit = meta["order"].value("edit", "");
        if (edit.rfind("method string→\"", 0) == 0) {
            method_values.push_back(edit.substr(edit.find('"')));
        }
        debug_key |= edit == "(document) object+debug";
    }
    ASSERT_GE(method_values.size(), 3U);
    // "post" sits beside "courier" and "drone" in the program: they come before "usage",
    // ten words away.
    const auto at = [&](const std::string &v) {
        return std::find(method_values.begin(), method_values.end(), v) - method_values.begin();
    };
    EXPECT_LT(at("\"courier\""), at("\"usage\""));
    EXPECT_LT(at("\"drone\""), at("\"usage\""));
    EXPECT_TRUE(debug_key) << "a key only the program knows";
}

TEST(HostileStructure, PairsOfEditsFollowTheSingles) {
    auto stub = hostile();
    const json answer = generate(*stub, order_request(2000));
    std::size_t last_single = 0;
    std::size_t first_pair = 0;
    for (std::size_t j = 13; j < answer["meta"].size(); ++j) {
        const json &meta = answer["meta"][j]["order"];
        if (meta.contains("edit")) {
            last_single = j;
        } else if (meta["category"] == "structural" && first_pair == 0) {
            ASSERT_EQ(meta["edits"].size(), 2U) << meta.dump();
            first_pair = j;
        }
    }
    ASSERT_GT(first_pair, 0U);
    EXPECT_LT(last_single, first_pair);
}

TEST(HostileStructure, SameSeedSameDocumentsAndTextsThatAreNotUtf8GoAsBytes) {
    auto stub = hostile();
    const std::string once = stub->generate(order_request(60).dump());
    EXPECT_EQ(once, hostile()->generate(order_request(60).dump()));
    const json answer = json::parse(once);
    bool bytes = false;
    for (const json &set : answer["input_sets"]) {
        bytes |= set["order"].is_object() && set["order"].contains("$bytes");
    }
    EXPECT_TRUE(bytes) << "the raw-bytes polyglot inside a document";
}

TEST(HostileStructure, NonAsciiHugeAndDeepExamplesStayValidAndBounded) {
    auto stub = hostile();
    // A label cut inside a UTF-8 character would make the answer invalid JSON.
    json accents = request({{"order", "json"}}, 40);
    // The last tag is copied by a single edit; its label is cut at 21 bytes, between
    // characters.
    accents["slots"]["order"]["example"] = {{"tags", {"ü", "aéééééééééééééééééééééé"}},
                                            {"name", "Zoë Ørsted"}};
    const json answer = generate(*stub, accents);
    ASSERT_EQ(answer["input_sets"].size(), 40U);
    EXPECT_NE(answer["meta"].dump().find(R"(tags array+\"aééééééééé...)"), std::string::npos)
        << "the copy's label, cut between characters";
    // 5,000 strings and 200 levels: the places past the bounds are written as they are.
    json wide = json::object();
    for (int i = 0; i < 5000; ++i) {
        wide["field" + std::to_string(i)] = "value";
    }
    json deep = "leaf";
    for (int i = 0; i < 200; ++i) {
        deep = json{{"down", deep}};
    }
    for (const json &example : {wide, deep}) {
        json req = request({{"order", "json"}}, 20);
        req["slots"]["order"]["example"] = example;
        const std::string text = stub->generate(req.dump());
        EXPECT_LT(text.size(), std::size_t{64} << 20) << "20 sets";
        const json sets = json::parse(text)["input_sets"];
        ASSERT_EQ(sets.size(), 20U);
        const std::string &last = sets[19]["order"].get_ref<const std::string &>();
        EXPECT_TRUE(json::parse(last).is_object()) << last.substr(0, 200);
    }
}

}  // namespace
}  // namespace sbx::stubs_test
