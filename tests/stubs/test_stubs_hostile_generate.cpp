// Hostile generation: replayable per seed, every category reaching every slot over a
// batch, NUL bytes intact in the JSON, and values shaped by slot type.
#include "hostile_fixture.hpp"

namespace sbx::stubs_test {
namespace {

const std::map<std::string, std::string> kSlots = {{"a_text", "string"}, {"b_path", "path"},
                                                   {"c_email", "email"}, {"d_int", "int"},
                                                   {"e_float", "float"}, {"f_json", "json"}};

TEST(HostileGenerate, SameSeedIsByteIdenticalAndAnotherSeedDiffers) {
    auto first = hostile();
    auto second = hostile();
    const std::string once = first->generate(request(kSlots, 50, 7).dump());
    EXPECT_EQ(once, first->generate(request(kSlots, 50, 7).dump()));
    EXPECT_EQ(once, second->generate(request(kSlots, 50, 7).dump())) << "across instances";
    EXPECT_NE(once, first->generate(request(kSlots, 50, 8).dump()));
    EXPECT_NE(once, first->generate(request(kSlots, 50, -7).dump()));
}

TEST(HostileGenerate, ReturnsExactlyCountSetsWithAParallelMeta) {
    auto stub = hostile();
    const json answer = generate(*stub, request(kSlots, 37));
    ASSERT_EQ(answer["input_sets"].size(), 37U);
    ASSERT_EQ(answer["meta"].size(), 37U);
    for (std::size_t j = 0; j < 37; ++j) {
        for (const auto &[name, type] : kSlots) {
            EXPECT_TRUE(answer["input_sets"][j].contains(name));
            EXPECT_TRUE(answer["meta"][j][name]["category"].is_string());
            EXPECT_TRUE(answer["meta"][j][name]["payload_index"].is_number_unsigned());
        }
    }
}

TEST(HostileGenerate, SlotIOfSetJTakesPayloadIPlusJ) {
    // (i + j + offset) mod N: the next slot of a set holds what this slot gets next set.
    auto stub = hostile();
    const json answer = generate(*stub, request({{"a", "string"}, {"b", "string"}}, 20));
    for (std::size_t j = 0; j + 1 < 20; ++j) {
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
    const json answer = generate(*stub, request(kSlots, 2000, 12345));
    for (const char *slot : {"a_text", "b_path", "c_email"}) {
        EXPECT_EQ(categories_of(answer, slot), categories) << slot;
        std::set<int64_t> indexes;
        for (const json &meta : answer["meta"]) {
            indexes.insert(meta[slot]["payload_index"].get<int64_t>());
        }
        EXPECT_EQ(static_cast<int64_t>(indexes.size()), n) << slot << ": every payload";
    }
    // Categories are interleaved: a batch as short as the category count covers them all,
    // wherever the seed starts it (also late in the order, past the small categories' end).
    for (const std::int64_t seed : {99, 12345, 7, 2024, 31337}) {
        const json short_batch =
            generate(*stub, request(kSlots, static_cast<int64_t>(categories.size()), seed));
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
        const auto &value = set["s"].get_ref<const std::string &>();
        if (value.find('\0') != std::string::npos) {
            ++with_nul;
            EXPECT_GT(value.size(), 0U);
        }
    }
    EXPECT_GE(with_nul, 5U) << "NUL alone, embedded, leading, trailing, repeated";
    bool embedded = false;
    for (const json &set : answer["input_sets"]) {
        embedded |= set["s"].get<std::string>() == std::string("a\0b", 3);
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

TEST(HostileGenerate, JsonSlotsGetMalformedOrOversizedJsonAsStrings) {
    auto stub = hostile();
    const json answer = generate(*stub, request({{"j", "json"}}, 200));
    EXPECT_EQ(categories_of(answer, "j"), (std::set<std::string>{"malformed_json", "oversized"}));
    for (const json &set : answer["input_sets"]) {
        EXPECT_TRUE(set["j"].is_string());
    }
}

TEST(HostileGenerate, TextSlotsAlwaysGetStrings) {
    auto stub = hostile();
    const json answer = generate(*stub, request({{"b", "bool"}, {"e", "enum"}}, 700));
    for (const json &set : answer["input_sets"]) {
        EXPECT_TRUE(set["b"].is_string());
        EXPECT_TRUE(set["e"].is_string());
    }
}

}  // namespace
}  // namespace sbx::stubs_test
