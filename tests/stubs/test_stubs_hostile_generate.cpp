// Hostile generation: replayable per seed, the most potent payloads first, every category
// reaching every slot over a batch, NUL bytes intact in the JSON, raw bytes as `$bytes`
// values, hostile values inside valid documents, and values shaped by slot type.
#include "hostile_fixture.hpp"

#include <sbx/bytes_value.hpp>

#include <algorithm>

namespace sbx::stubs_test {
namespace {

// One slot of each kind a strategy treats differently.
const std::map<std::string, std::string> &slots_of_every_kind() {
    static const std::map<std::string, std::string> slots = {
        {"a_text", "string"}, {"b_path", "path"},   {"c_email", "email"},
        {"d_int", "int"},     {"e_float", "float"}, {"f_json", "json"}};
    return slots;
}

TEST(HostileGenerate, SameSeedIsByteIdenticalAndAnotherSeedDiffersAfterTheFirstTried) {
    auto first = hostile();
    auto second = hostile();
    const std::string once = first->generate(request(slots_of_every_kind(), 50, 7).dump());
    EXPECT_EQ(once, first->generate(request(slots_of_every_kind(), 50, 7).dump()));
    EXPECT_EQ(once, second->generate(request(slots_of_every_kind(), 50, 7).dump()))
        << "across instances";
    EXPECT_NE(once, first->generate(request(slots_of_every_kind(), 50, 8).dump()));
    EXPECT_NE(once, first->generate(request(slots_of_every_kind(), 50, -7).dump()));
    // The first-tried payloads are the same for every seed: the most potent come first.
    const json a = generate(*first, request(slots_of_every_kind(), 13, 7));
    const json b = generate(*first, request(slots_of_every_kind(), 13, 8));
    EXPECT_EQ(a["input_sets"], b["input_sets"]);
}

TEST(HostileGenerate, PolyglotsComeFirstAndNameTheirParts) {
    auto stub = hostile();
    const json answer = generate(*stub, request({{"s", "string"}}, 13));
    const json &meta = answer["meta"][0]["s"];
    EXPECT_EQ(meta["category"], "polyglot");
    ASSERT_TRUE(meta["parts"].is_object());
    const std::string value = answer["input_sets"][0]["s"].get<std::string>();
    std::set<std::string> parts;
    for (const auto &[category, text] : meta["parts"].items()) {
        parts.insert(category);
        ASSERT_TRUE(text.is_string()) << category;
        EXPECT_NE(value.find(text.get<std::string>()), std::string::npos) << category;
    }
    for (const char *category :
         {"format_string", "path_traversal", "sql_injection", "shell_injection",
          "template_injection", "xxe", "unicode", "control_chars", "numeric_extremes"}) {
        EXPECT_TRUE(parts.count(category)) << category;
    }
    EXPECT_NE(value.find('\0'), std::string::npos) << "a NUL rides along";
    // The first 13 sets hold the empty string and a second, raw-bytes polyglot.
    std::set<std::string> categories = categories_of(answer, "s");
    EXPECT_TRUE(categories.count("empty"));
    bool empty = false;
    bool raw_polyglot = false;
    for (std::size_t j = 0; j < 13; ++j) {
        const json &v = answer["input_sets"][j]["s"];
        empty |= v == "";
        raw_polyglot |= v.is_object() && answer["meta"][j]["s"]["category"] == "polyglot";
    }
    EXPECT_TRUE(empty);
    EXPECT_TRUE(raw_polyglot) << "invalid UTF-8 comes as a $bytes value";
    const json &reached = answer["categories"];
    for (const char *category : {"polyglot", "invalid_utf8", "empty", "sql_injection"}) {
        EXPECT_NE(std::find(reached.begin(), reached.end(), category), reached.end()) << category;
    }
}

TEST(HostileGenerate, InvalidUtf8ComesAsBytesValues) {
    auto stub = hostile();
    const json answer = generate(*stub, request({{"s", "string"}}, 700));
    std::size_t raw = 0;
    for (std::size_t j = 0; j < answer["input_sets"].size(); ++j) {
        const json &v = answer["input_sets"][j]["s"];
        if (answer["meta"][j]["s"]["category"] == "invalid_utf8") {
            ASSERT_TRUE(v.is_object()) << v.dump();
            ASSERT_EQ(v.size(), 1U);
            const auto bytes = sbx::base64_decode(v["$bytes"].get<std::string>());
            ASSERT_TRUE(bytes.has_value()) << v.dump();
            EXPECT_THROW((void)json(*bytes).dump(), json::type_error) << "not valid UTF-8";
            ++raw;
        }
    }
    EXPECT_GE(raw, 10U);
}

TEST(HostileGenerate, JsonSlotsGetHostileValuesInsideTheExampleDocument) {
    auto stub = hostile();
    json req = request({{"j", "json"}}, 13 + 4);
    req["slots"]["j"]["example"] = {{"name", "Ada"}, {"id", 7}, {"tags", {"x", "y"}}};
    const json answer = generate(*stub, req);
    // Set 0: the polyglot in one string of the example (the longest), the document sent as
    // its text, so what the program reads is exactly what was written.
    ASSERT_TRUE(answer["input_sets"][0]["j"].is_string());
    const json doc = json::parse(answer["input_sets"][0]["j"].get<std::string>());
    ASSERT_TRUE(doc.is_object()) << doc.dump().substr(0, 200);
    EXPECT_NE(doc["name"].get<std::string>().find("%n"), std::string::npos);
    EXPECT_EQ(answer["meta"][0]["j"]["category"], "polyglot");
    EXPECT_EQ(answer["meta"][0]["j"]["field"], "name");
    EXPECT_EQ(answer["meta"][0]["j"]["embedded"], true);
    EXPECT_TRUE(answer["meta"][0]["j"]["edits"].is_array());
    // Broken documents still come, as text: the empty one second.
    EXPECT_EQ(answer["input_sets"][1]["j"], "");
    EXPECT_EQ(answer["meta"][1]["j"]["category"], "empty");
    EXPECT_FALSE(answer["meta"][1]["j"].contains("embedded")) << "the document itself";
    // Past the first-tried sets, one set in four has a payload of the rest in every string,
    // and a numeric payload in the numbers too, digits exact.
    const json &rest_meta = answer["meta"][13 + 3]["j"];
    EXPECT_EQ(rest_meta["embedded"], true) << rest_meta.dump();
    const std::string rest = answer["input_sets"][13 + 3]["j"].get<std::string>();
    const json rest_doc = json::parse(rest, nullptr, false);
    if (!rest_doc.is_discarded() && rest_doc["name"].is_string()) {
        EXPECT_EQ(rest_doc["name"], rest_doc["tags"][0]) << rest;
    }
    // Without an example, a small record carries them.
    const json bare = generate(*stub, request({{"j", "json"}}, 1));
    EXPECT_NE(bare["input_sets"][0]["j"].get<std::string>().find("\"name\""), std::string::npos);
}

TEST(HostileGenerate, ReturnsExactlyCountSetsWithAParallelMeta) {
    auto stub = hostile();
    const json answer = generate(*stub, request(slots_of_every_kind(), 37));
    ASSERT_EQ(answer["input_sets"].size(), 37U);
    ASSERT_EQ(answer["meta"].size(), 37U);
    for (std::size_t j = 0; j < 37; ++j) {
        for (const auto &[name, type] : slots_of_every_kind()) {
            EXPECT_TRUE(answer["input_sets"][j].contains(name));
            const json &meta = answer["meta"][j][name];
            EXPECT_TRUE(meta["category"].is_string());
            // A structural edit of a json slot's example names its edit instead.
            EXPECT_TRUE(meta["category"] == "structural"
                            ? meta.contains("edit") || meta.contains("edits")
                            : meta["payload_index"].is_number_unsigned())
                << meta.dump();
        }
    }
}

TEST(HostileGenerate, SlotIOfSetJTakesPayloadIPlusJ) {
    // (i + j + offset) mod N: the next slot of a set holds what this slot gets next set,
    // within the first-tried list (13 long) and within the rest.
    auto stub = hostile();
    const json answer = generate(*stub, request({{"a", "string"}, {"b", "string"}}, 40));
    for (std::size_t j = 0; j + 1 < 40; ++j) {
        if (j == 12) {
            continue;  // the step from the first-tried list to the rest
        }
        EXPECT_EQ(answer["meta"][j]["b"], answer["meta"][j + 1]["a"]) << j;
        EXPECT_EQ(answer["input_sets"][j]["b"], answer["input_sets"][j + 1]["a"]) << j;
    }
}

TEST(HostileGenerate, EveryCategoryReachesEveryTextSlotOverABatch) {
    auto stub = hostile();
    const auto n = static_cast<int64_t>(payload_indexes(*stub).size());
    const json all = generate(*stub, request({{"s", "string"}}, n));
    const auto categories = categories_of(all, "s");

    // Every payload comes round: small categories cycle while the largest is dealt, so the
    // whole order is (categories x largest category) long, under 2000 here.
    const json answer = generate(*stub, request(slots_of_every_kind(), 2000, 12345));
    for (const char *slot : {"a_text", "b_path", "c_email"}) {
        EXPECT_EQ(categories_of(answer, slot), categories) << slot;
        std::set<int64_t> indexes;
        for (const json &meta : answer["meta"]) {
            indexes.insert(meta[slot]["payload_index"].get<int64_t>());
        }
        EXPECT_EQ(static_cast<int64_t>(indexes.size()), n) << slot << ": every payload";
    }
    // After the first-tried list (13 sets), categories are interleaved: a batch only as
    // many sets longer covers them all, wherever the seed starts it (also late in the
    // order, past the small categories' end).
    for (const std::int64_t seed : {99, 12345, 7, 2024, 31337}) {
        const json short_batch = generate(
            *stub,
            request(slots_of_every_kind(), 13 + static_cast<int64_t>(categories.size()), seed));
        EXPECT_EQ(categories_of(short_batch, "a_text"), categories) << "seed " << seed;
    }
}

TEST(HostileGenerate, NulBytesSurviveAsEscapesInTheJson) {
    auto stub = hostile();
    const std::string raw = stub->generate(request({{"s", "bytes"}}, 1024).dump());
    EXPECT_NE(raw.find("\\u0000"), std::string::npos);
    const json answer = json::parse(raw);
    std::size_t with_nul = 0;
    for (const json &set : answer["input_sets"]) {
        if (!set["s"].is_string()) {
            continue;  // raw bytes
        }
        const auto &value = set["s"].get_ref<const std::string &>();
        if (value.find('\0') != std::string::npos) {
            ++with_nul;
            EXPECT_GT(value.size(), 0U);
        }
    }
    EXPECT_GE(with_nul, 5U) << "NUL alone, embedded, leading, trailing, repeated";
    bool embedded = false;
    for (const json &set : answer["input_sets"]) {
        embedded |= set["s"] == std::string("a\0b", 3);
    }
    EXPECT_TRUE(embedded) << "bytes after the NUL are kept";
}

TEST(HostileGenerate, NumericSlotsGetNumericExtremesAsNumbersWhereRepresentable) {
    auto stub = hostile();
    const json answer = generate(*stub, request({{"i", "int"}, {"f", "float"}}, 300));
    EXPECT_EQ(categories_of(answer, "i"), std::set<std::string>{"numeric_extremes"});
    EXPECT_EQ(categories_of(answer, "f"), std::set<std::string>{"numeric_extremes"});
    bool two_to_63 = false;
    bool nan_text = false;
    bool int_min = false;
    for (const json &set : answer["input_sets"]) {
        const json &v = set["i"];
        two_to_63 |= v.is_number_unsigned() && v.get<uint64_t>() == 9223372036854775808ULL;
        int_min |= v.is_number_integer() && v.get<int64_t>() == -2147483648LL;
        nan_text |= v == "NaN";
    }
    EXPECT_TRUE(two_to_63) << "2^63 exact, as a JSON number";
    EXPECT_TRUE(int_min);
    EXPECT_TRUE(nan_text) << "NaN has no JSON number, so it comes as a string";
}

TEST(HostileGenerate, JsonSlotsGetEveryCategoryBrokenDocumentsAsText) {
    auto stub = hostile();
    // One set in four past the first-tried ones carries a payload: four times the batch.
    const json answer = generate(*stub, request({{"j", "json"}}, 13 + 4 * 400));
    auto all = categories_of(generate(*stub, request({{"s", "string"}}, 400)), "s");
    all.insert("structural");
    EXPECT_EQ(categories_of(answer, "j"), all);
    for (std::size_t j = 0; j < answer["input_sets"].size(); ++j) {
        const json &meta = answer["meta"][j]["j"];
        if (meta["category"] == "malformed_json") {
            EXPECT_TRUE(answer["input_sets"][j]["j"].is_string()) << "a broken document";
            EXPECT_FALSE(meta.contains("embedded"));
        }
    }
}

TEST(HostileGenerate, TextSlotsAlwaysGetStrings) {
    auto stub = hostile();
    const json answer = generate(*stub, request({{"b", "bool"}, {"e", "enum"}}, 700));
    for (const json &set : answer["input_sets"]) {
        EXPECT_TRUE(set["b"].is_string() || set["b"].contains("$bytes"));
        EXPECT_TRUE(set["e"].is_string() || set["e"].contains("$bytes"));
    }
}

}  // namespace
}  // namespace sbx::stubs_test
