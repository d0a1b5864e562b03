// Tests of the misuse stub strategy: the real misuse.so through the host's loader — seeded
// replay, every kind over a batch, tags that tell the truth about each value, bad config.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>

#include "plugins/plugin.hpp"

namespace sbx::stubs_test {
namespace {

using nlohmann::json;

// Function-local statics: a throwing initializer of a global could not be caught.
const std::set<std::string> &all_kinds() {
    static const std::set<std::string> kinds = {"wrong_type",    "missing_required", "extra_slot",
                                                "out_of_range",  "wrong_arity",      "path_escape",
                                                "enum_violation"};
    return kinds;
}

std::unique_ptr<plugins::Instance> misuse(const json &config = json::object()) {
    static const std::shared_ptr<plugins::Plugin> plugin = plugins::load_plugin(SBX_MISUSE_PLUGIN);
    return plugin->create(config);
}

std::string generate_text(const json &request, const json &config = json::object()) {
    return misuse(config)->generate(request.dump());
}

json generate(const json &request, const json &config = json::object()) {
    return json::parse(generate_text(request, config));
}

json request(const json &slots, int64_t count, int64_t seed = 1) {
    return {{"slots", slots}, {"count", count}, {"seed", seed}, {"preset", json::object()}};
}

// Slots every kind applies to, declared as the host declares them (min/max as floats).
const json &all_slots() {
    static const json slots = {
        {"count",
         {{"type", "int"}, {"required", true}, {"min", 1.0}, {"max", 10.0}, {"example", 5}}},
        {"ratio", {{"type", "float"}, {"required", false}, {"example", 0.5}}},
        {"verbose", {{"type", "bool"}, {"required", false}, {"example", true}}},
        {"doc", {{"type", "json"}, {"required", true}, {"example", {{"a", 1}, {"b", "x"}}}}},
        {"title", {{"type", "string"}, {"required", true}, {"example", "report"}}},
        {"file", {{"type", "path"}, {"required", true}, {"example", "data/input.txt"}}},
        {"mode",
         {{"type", "enum"}, {"required", true}, {"values", {"fast", "slow"}}, {"example", "fast"}}},
        {"email", {{"type", "email"}, {"required", true}}},
        {"args", {{"type", "list"}, {"required", true}, {"example", {"in.txt", "out.txt"}}}}};
    return slots;
}

// The valid set every misuse starts from: examples, and the plain value of an email.
json valid_set() {
    json set = json::object();
    for (const auto &[name, slot] : all_slots().items()) {
        set[name] = slot.value("example", json("user@example.com"));
    }
    return set;
}

// Which (slot, kind) pairs can occur for all_slots(); extra slots count as slot "__extra".
std::set<std::pair<std::string, std::string>> applicable_pairs() {
    std::set<std::pair<std::string, std::string>> pairs = {{"__extra", "extra_slot"}};
    for (const auto &[name, slot] : all_slots().items()) {
        pairs.insert({name, "wrong_type"});
        if (slot["required"].get<bool>()) {
            pairs.insert({name, "missing_required"});
        }
    }
    for (const char *name : {"count", "ratio"}) {
        pairs.insert({name, "out_of_range"});
    }
    for (const char *name : {"title", "file", "args"}) {
        pairs.insert({name, "wrong_arity"});
    }
    pairs.insert({"file", "path_escape"});
    pairs.insert({"mode", "enum_violation"});
    return pairs;
}

bool is_extra(const std::string &name) {
    return name.rfind("__extra_", 0) == 0;
}

// Checks that `value` is misused the way `tag` says, against the slot's declaration and
// valid value.
void expect_as_tagged(const std::string &name, const json &tag, const json &value,
                      const json &declared, const json &valid) {
    SCOPED_TRACE(name + " = " + value.dump() + " tagged " + tag.dump());
    const std::string kind = tag["kind"].get<std::string>();
    if (kind == "extra_slot") {
        EXPECT_TRUE(is_extra(name));
        EXPECT_TRUE(declared.is_null());  // no step declares it
        EXPECT_EQ(value, "unexpected");
        return;
    }
    ASSERT_TRUE(declared.is_object());
    EXPECT_NE(value, valid);
    const std::string type = declared["type"].get<std::string>();
    if (kind == "wrong_type") {
        EXPECT_EQ(tag["expected"], type);
        if (type == "int") {
            EXPECT_FALSE(value.is_number_integer());
        } else if (type == "float") {
            EXPECT_FALSE(value.is_number());
        } else if (type == "bool") {
            EXPECT_FALSE(value.is_boolean());
        } else if (type == "json") {
            EXPECT_NE(value.type(), valid.type());
        } else if (type == "list") {
            EXPECT_FALSE(value.is_array());
        } else {
            EXPECT_FALSE(value.is_string());
        }
    } else if (kind == "missing_required") {
        EXPECT_TRUE(declared["required"].get<bool>());
        EXPECT_TRUE(value.is_null()) << "left out of the set";
        EXPECT_EQ(tag["sent"], "absent");
    } else if (kind == "out_of_range") {
        ASSERT_TRUE(value.is_number());
        EXPECT_TRUE(type == "int" || type == "float");
        if (type == "int") {
            EXPECT_TRUE(value.is_number_integer());
        }
        const double v = value.get<double>();
        const std::string bound = tag["bound"].get<std::string>();
        if (bound == "none") {
            EXPECT_FALSE(declared.contains("min") || declared.contains("max"));
            EXPECT_TRUE(v < 0 || v >= 2147483648.0);
        } else {
            EXPECT_EQ(tag["limit"], declared[bound]);
            if (bound == "min") {
                EXPECT_LT(v, declared["min"].get<double>());
            } else {
                EXPECT_GT(v, declared["max"].get<double>());
            }
        }
    } else if (kind == "wrong_arity" && type == "list") {
        ASSERT_TRUE(value.is_array());
        EXPECT_NE(value.size(), valid.size());
        EXPECT_EQ(tag["items"], value.size());
        // The valid items stay, in order: only the count of arguments changes.
        for (std::size_t i = 0; i < std::min(value.size(), valid.size()); ++i) {
            EXPECT_EQ(value[i], valid[i]);
        }
    } else if (kind == "wrong_arity") {
        EXPECT_TRUE(type == "string" || type == "name" || type == "path");
        ASSERT_TRUE(value.is_string());
        const auto &text = value.get_ref<const std::string &>();
        EXPECT_TRUE(text.empty() || text.find(' ') != std::string::npos);
        EXPECT_EQ(
            tag["words"].get<std::size_t>(), text.empty() ? 0U : 1U + [&] {
                std::size_t spaces = 0;
                for (char c : text) {
                    spaces += c == ' ' ? 1 : 0;
                }
                return spaces;
            }());
    } else if (kind == "path_escape") {
        EXPECT_EQ(type, "path");
        ASSERT_TRUE(value.is_string());
        const auto &path = value.get_ref<const std::string &>();
        EXPECT_TRUE(path.front() == '/' || path.front() == '~' ||
                    path.find("..") != std::string::npos);
    } else if (kind == "enum_violation") {
        EXPECT_EQ(type, "enum");
        for (const json &allowed : declared["values"]) {
            EXPECT_NE(value, allowed);
        }
    } else {
        ADD_FAILURE() << "unknown kind " << kind;
    }
}

// Every set against its tags: tagged slots misused as tagged, all others valid.
void expect_sets_match_tags(const json &answer, const json &slots, const json &valid) {
    ASSERT_EQ(answer["input_sets"].size(), answer["meta"].size());
    for (std::size_t j = 0; j < answer["input_sets"].size(); ++j) {
        SCOPED_TRACE("set " + std::to_string(j));
        const json &set = answer["input_sets"][j];
        const json &tags = answer["meta"][j];
        for (const auto &[name, value] : set.items()) {
            if (tags.contains(name)) {
                expect_as_tagged(name, tags[name], value, slots.value(name, json()),
                                 valid.value(name, json()));
            } else {
                EXPECT_EQ(value, valid[name]) << name;
            }
        }
        for (const auto &[name, tag] : tags.items()) {
            // A missing slot is left out; every other misused slot is there.
            EXPECT_EQ(set.contains(name), tag["kind"] != "missing_required") << name;
            if (tag["kind"] == "missing_required") {
                expect_as_tagged(name, tag, json(), slots.value(name, json()),
                                 valid.value(name, json()));
            }
        }
    }
}

TEST(MisuseStub, SameSeedSameBytesOtherSeedOtherBytes) {
    const std::string once = generate_text(request(all_slots(), 40, 7));
    EXPECT_EQ(once, generate_text(request(all_slots(), 40, 7)));
    EXPECT_NE(once, generate_text(request(all_slots(), 40, 8)));
    // A missing seed is seed 0.
    EXPECT_EQ(generate_text({{"slots", all_slots()}, {"count", 3}}),
              generate_text(request(all_slots(), 3, 0)));
}

// Pinned output: a change to the schedule or the values changes every recorded seed's
// inputs, and must be a deliberate, visible decision.
TEST(MisuseStub, GoldenOutputForAFixedSeed) {
    const json slots = {{"n", {{"type", "int"}, {"min", 0.0}, {"max", 9.0}, {"example", 3}}},
                        {"p", {{"type", "path"}, {"example", "in.txt"}}}};
    EXPECT_EQ(generate_text(request(slots, 5, 42)),
              R"({"categories":["wrong_type","missing_required","extra_slot","out_of_range",)"
              R"("wrong_arity","path_escape"],)"
              R"("input_sets":[{"__extra_1":"unexpected","n":3,"p":"in.txt"},)"
              R"({"n":10,"p":"in.txt"},{"n":-1},{"n":3,"p":"in.txt extra words"},)"
              R"({"n":"NaN","p":"/etc/shadow"}],)"
              R"("meta":[{"__extra_1":{"kind":"extra_slot"}},)"
              R"({"n":{"bound":"max","kind":"out_of_range","limit":9.0}},)"
              R"({"n":{"bound":"min","kind":"out_of_range","limit":0.0},)"
              R"("p":{"kind":"missing_required","sent":"absent"}},)"
              R"({"p":{"kind":"wrong_arity","words":3}},)"
              R"({"n":{"expected":"int","got":"string","kind":"wrong_type"},)"
              R"("p":{"kind":"path_escape"}}]})");
}

// Pinned output of a list slot's argument-count misuses: the pair (wrong_arity, files)
// walks its candidates in turn, so four uses send four different counts.
TEST(MisuseStub, GoldenListArityForAFixedSeed) {
    const json slots = {{"files", {{"type", "list"}, {"example", {"a", "b"}}}}};
    EXPECT_EQ(
        generate_text(request(slots, 4, 42), {{"kinds", {"wrong_arity"}}}),
        R"({"categories":["wrong_arity"],"input_sets":[{"files":["a","b","--flag","value"]},)"
        R"({"files":["a"]},)"
        R"({"files":[]},{"files":["a","b","extra"]}],)"
        R"("meta":[{"files":{"items":4,"kind":"wrong_arity"}},)"
        R"({"files":{"items":1,"kind":"wrong_arity"}},{"files":{"items":0,"kind":"wrong_arity"}},)"
        R"({"files":{"items":3,"kind":"wrong_arity"}}]})");
}

TEST(MisuseStub, EveryKindInEveryRoundOfSeven) {
    for (int64_t seed : {1, 2, 3, 99}) {
        const json answer = generate(request(all_slots(), 21, seed));
        ASSERT_EQ(answer["input_sets"].size(), 21U);
        ASSERT_EQ(answer["meta"].size(), 21U);
        // Seven kinds apply, one leads each set, reshuffled every seven sets.
        for (std::size_t round = 0; round < 3; ++round) {
            std::set<std::string> kinds;
            for (std::size_t j = round * 7; j < round * 7 + 7; ++j) {
                for (const auto &[name, tag] : answer["meta"][j].items()) {
                    kinds.insert(tag["kind"].get<std::string>());
                }
            }
            EXPECT_EQ(kinds, all_kinds()) << "seed " << seed << " round " << round;
        }
    }
}

TEST(MisuseStub, EveryApplicableSlotAndKindOverABatch) {
    const json answer = generate(request(all_slots(), 200, 5));
    std::set<std::pair<std::string, std::string>> seen;
    std::size_t compound = 0;
    for (const json &tags : answer["meta"]) {
        EXPECT_FALSE(tags.empty()) << "every set is misused";
        std::set<std::string> kinds;
        for (const auto &[name, tag] : tags.items()) {
            const std::string kind = tag["kind"].get<std::string>();
            seen.insert({is_extra(name) ? "__extra" : name, kind});
            kinds.insert(kind);
        }
        compound += kinds.size() > 1 ? 1 : 0;
    }
    EXPECT_EQ(seen, applicable_pairs());
    // One set in four on average gets a second kind.
    EXPECT_GT(compound, 20U);
    EXPECT_LT(compound, 100U);
}

TEST(MisuseStub, EachSetDiffersFromTheValidSetAsItsTagsSay) {
    for (int64_t seed : {1, 17, -4}) {
        expect_sets_match_tags(generate(request(all_slots(), 150, seed)), all_slots(), valid_set());
    }
}

TEST(MisuseStub, ValidValuesComeFromExampleDefaultThenPlainValue) {
    // Only extra slots here, so every declared slot keeps its valid value.
    const json slots = {{"a", {{"type", "int"}, {"default", 4}, {"example", 2}}},
                        {"b", {{"type", "int"}, {"default", 4}}},
                        {"c", {{"type", "int"}, {"min", 3.0}}},
                        {"d", {{"type", "name"}}}};
    const json answer = generate(request(slots, 5), {{"kinds", {"extra_slot"}}});
    for (std::size_t j = 0; j < 5; ++j) {
        json set = answer["input_sets"][j];
        for (const auto &[name, tag] : answer["meta"][j].items()) {
            EXPECT_EQ(tag, (json{{"kind", "extra_slot"}}));
            set.erase(name);
        }
        // An int slot's plain value from a float min is an integer: 3, not 3.0.
        EXPECT_EQ(set.dump(), R"({"a":2,"b":4,"c":3,"d":"Alex Example"})");
    }
}

TEST(MisuseStub, OutOfRangeAtEveryKindOfBound) {
    const json slots = {
        {"only_min", {{"type", "int"}, {"min", 5.0}}},
        {"only_max", {{"type", "float"}, {"max", -2.5}}},
        {"fraction", {{"type", "int"}, {"min", 0.5}, {"max", 1.5}}},
        {"unbounded_int", {{"type", "int"}}},
        {"unbounded_float", {{"type", "float"}}},
        {"huge", {{"type", "float"}, {"min", -1.0e308}, {"max", 1.7976931348623157e308}}}};
    // Plain values: min (rounded inwards for int slots), else 0, within max.
    const json valid = {{"only_min", 5},      {"only_max", -2.5},       {"fraction", 1},
                        {"unbounded_int", 0}, {"unbounded_float", 0.0}, {"huge", -1.0e308}};
    const json unchanged = generate(request(slots, 1), {{"kinds", {"extra_slot"}}});
    for (const auto &[name, value] : valid.items()) {
        EXPECT_EQ(unchanged["input_sets"][0][name].dump(), value.dump()) << name;
    }
    const json answer = generate(request(slots, 120, 3), {{"kinds", {"out_of_range"}}});
    std::map<std::string, std::set<std::string>> bounds;
    for (std::size_t j = 0; j < 120; ++j) {
        for (const auto &[name, tag] : answer["meta"][j].items()) {
            bounds[name].insert(tag["bound"].get<std::string>());
            expect_as_tagged(name, tag, answer["input_sets"][j][name], slots[name], valid[name]);
        }
    }
    EXPECT_EQ(bounds["only_min"], (std::set<std::string>{"min"}));
    EXPECT_EQ(bounds["only_max"], (std::set<std::string>{"max"}));
    EXPECT_EQ(bounds["fraction"], (std::set<std::string>{"min", "max"}));
    EXPECT_EQ(bounds["unbounded_int"], (std::set<std::string>{"none"}));
    // No finite number lies above the largest double; below -1e308 there is.
    EXPECT_EQ(bounds["huge"], (std::set<std::string>{"min"}));
}

TEST(MisuseStub, MissingRequiredLeavesRequiredSlotsOut) {
    // Also a slot whose valid value is "": absent is not "" to a `run` item that is exactly
    // its template (no argument at all).
    const json slots = {{"optional", {{"type", "string"}, {"required", false}, {"example", "x"}}},
                        {"empty", {{"type", "string"}, {"required", true}}},
                        {"needed", {{"type", "url"}, {"required", true}}}};
    const json answer = generate(request(slots, 10), {{"kinds", {"missing_required"}}});
    std::set<std::string> missed;
    for (std::size_t j = 0; j < 10; ++j) {
        ASSERT_EQ(answer["meta"][j].size(), 1U);
        const std::string name = answer["meta"][j].begin().key();
        missed.insert(name);
        EXPECT_EQ(answer["meta"][j][name],
                  (json{{"kind", "missing_required"}, {"sent", "absent"}}));
        json expected = {{"optional", "x"}, {"empty", ""}, {"needed", "https://example.com/"}};
        expected.erase(name);
        EXPECT_EQ(answer["input_sets"][j], expected);
    }
    EXPECT_EQ(missed, (std::set<std::string>{"empty", "needed"}));
}

TEST(MisuseStub, WrongArityChangesAListSlotsItemCount) {
    const json slots = {{"files", {{"type", "list"}, {"example", {"a.txt", "b.txt"}}}},
                        {"none", {{"type", "list"}, {"example", json::array()}}},
                        {"plain", {{"type", "list"}}}};
    const json valid = {
        {"files", {"a.txt", "b.txt"}}, {"none", json::array()}, {"plain", {"a", "b"}}};
    const json answer = generate(request(slots, 60, 9), {{"kinds", {"wrong_arity"}}});
    std::map<std::string, std::set<std::size_t>> counts;
    bool flag = false;
    for (std::size_t j = 0; j < 60; ++j) {
        for (const auto &[name, tag] : answer["meta"][j].items()) {
            const json &value = answer["input_sets"][j][name];
            expect_as_tagged(name, tag, value, slots[name], valid[name]);
            counts[name].insert(value.size());
            flag = flag || (value.size() == 4 && value[2] == "--flag" && value[3] == "value");
        }
    }
    // None, one fewer, one more, many more; an empty list cannot lose an item.
    EXPECT_EQ(counts["files"], (std::set<std::size_t>{0, 1, 3, 4, 11}));
    EXPECT_EQ(counts["none"], (std::set<std::size_t>{1, 2, 9}));
    EXPECT_TRUE(flag) << "an option and its value added";
}

TEST(MisuseStub, KindsConfigRestrictsTheKinds) {
    const json config = {{"kinds", {"path_escape", "enum_violation"}}};
    const json answer = generate(request(all_slots(), 30), config);
    std::set<std::string> kinds;
    for (const json &tags : answer["meta"]) {
        for (const auto &[name, tag] : tags.items()) {
            kinds.insert(tag["kind"].get<std::string>());
        }
    }
    EXPECT_EQ(kinds, (std::set<std::string>{"path_escape", "enum_violation"}));
    EXPECT_EQ(answer["categories"], json({"path_escape", "enum_violation"}));
    expect_sets_match_tags(answer, all_slots(), valid_set());

    // No enabled kind applies: the sets stay valid and untagged.
    const json plain = {{"s", {{"type", "string"}, {"example", "v"}}}};
    EXPECT_EQ(generate(request(plain, 2), config),
              (json{{"input_sets", {{{"s", "v"}}, {{"s", "v"}}}},
                    {"meta", {json::object(), json::object()}},
                    {"categories", json::array()}}));
}

TEST(MisuseStub, NoSlotsGivesExtraSlots) {
    const json answer = generate({{"count", 4}, {"seed", 2}});
    for (std::size_t j = 0; j < 4; ++j) {
        const json &set = answer["input_sets"][j];
        EXPECT_GE(set.size(), 1U);
        for (const auto &[name, value] : set.items()) {
            EXPECT_TRUE(is_extra(name)) << name;
            EXPECT_EQ(answer["meta"][j][name], (json{{"kind", "extra_slot"}}));
        }
    }
}

TEST(MisuseStub, ExtraSlotsDoNotOverwriteDeclaredOnes) {
    const json slots = {{"__extra_1", {{"type", "string"}, {"example", "mine"}}}};
    const json answer = generate(request(slots, 20), {{"kinds", {"extra_slot"}}});
    for (const json &set : answer["input_sets"]) {
        EXPECT_EQ(set["__extra_1"], "mine");
        EXPECT_TRUE(set.contains("__extra_2"));
    }
}

TEST(MisuseStub, CountZeroGivesNoSets) {
    const json none = generate(request(all_slots(), 0));
    EXPECT_EQ(none["input_sets"], json::array());
    EXPECT_EQ(none["meta"], json::array());
}

TEST(MisuseStub, BadConfigIsRefused) {
    try {
        misuse({{"kinds", {"wrong_type", "typo_kind"}}});
        ADD_FAILURE() << "accepted an unknown kind";
    } catch (const std::exception &e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("\"typo_kind\" is not a kind of misuse"), std::string::npos)
            << message;
        EXPECT_NE(message.find("wrong_type, missing_required, extra_slot, out_of_range, "
                               "wrong_arity, path_escape, enum_violation"),
                  std::string::npos)
            << message;
    }
    for (const json &config :
         {json{{"other", 1}}, json{{"kinds", json::array()}}, json{{"kinds", "wrong_type"}},
          json{{"kinds", {1}}}, json::array()}) {
        EXPECT_ANY_THROW(misuse(config)) << config;
    }
    EXPECT_NO_THROW(misuse({{"kinds", {"wrong_type", "wrong_type"}}}));
}

TEST(MisuseStub, MalformedRequestsAreInvalid) {
    for (const char *bad :
         {R"({"count":-1})", R"({"count":"3"})", R"({"count":1.5})", R"({"slots":[],"count":1})",
          R"({"seed":"x","count":1})", R"([1])", R"("text")", R"({"count":)",
          R"({"slots":{"i":{"type":"int","min":"low"}},"count":1})",
          R"({"slots":{"i":{"type":"int","max":[1]}},"count":0})"}) {
        try {
            misuse()->generate(bad);
            ADD_FAILURE() << "accepted " << bad;
        } catch (const plugins::PluginCallError &e) {
            EXPECT_EQ(e.status(), SBX_INVALID) << bad << ": " << e.what();
        }
    }
}

}  // namespace
}  // namespace sbx::stubs_test
