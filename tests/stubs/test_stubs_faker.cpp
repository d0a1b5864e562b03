// Tests of the faker stub strategy: the real faker.so through the host's loader — seeded
// replay, per-slot independence, name hints, values of the right type within bounds,
// locales, JSON schemas and examples, and malformed requests refused.
#include <regex>
#include <set>
#include <string>

#include "faker_fixture.hpp"

namespace sbx::stubs_test {
namespace {

bool matches(const json &value, const char *pattern) {
    return value.is_string() && std::regex_match(value.get<std::string>(), std::regex(pattern));
}

TEST(FakerStub, SameSeedSameBytesOtherSeedOtherBytes) {
    const json slots = {{"email", slot("email")}, {"n", slot("int")}, {"city", slot("string")}};
    const std::string once = faker_text(faker_request(slots, 20, 7));
    EXPECT_EQ(once, faker_text(faker_request(slots, 20, 7)));
    EXPECT_NE(once, faker_text(faker_request(slots, 20, 8)));
    EXPECT_EQ(faker_text({{"slots", slots}, {"count", 2}}), faker_text(faker_request(slots, 2, 0)));
}

// A value depends on (seed, set index, slot name, locale) only: adding a slot, or asking
// for more sets, changes no value already there.
TEST(FakerStub, AddingASlotOrSetsChangesNoOtherValue) {
    const json two = {{"email", slot("string")}, {"when", slot("date")}};
    json three = two;
    three["age"] = {{"type", "int"}, {"min", 18.0}, {"max", 90.0}};
    three["a_first"] = slot("string");  // sorts before the others
    const json small = faker_json(faker_request(two, 5, 11));
    const json big = faker_json(faker_request(three, 9, 11));
    for (std::size_t j = 0; j < 5; ++j) {
        EXPECT_EQ(small["input_sets"][j]["email"], big["input_sets"][j]["email"]);
        EXPECT_EQ(small["input_sets"][j]["when"], big["input_sets"][j]["when"]);
    }
}

TEST(FakerStub, NameHintsChooseTheGeneratorOfPlainStrings) {
    const json expected = {{"user_email", "email"},
                           {"firstName", "first_name"},
                           {"last_name", "last_name"},
                           {"full_name", "full_name"},
                           {"CITY", "city"},
                           {"phone_number", "phone"},
                           {"company_name", "company"},
                           {"homepage_url", "url"},
                           {"address", "address"},
                           {"street", "street"},
                           {"zip", "zip"},
                           {"postcode", "postcode"},
                           {"user_name", "username"},
                           {"birthday", "birthday"},
                           {"start_date", "date"},
                           {"country", "country"},
                           {"comment", "text"},
                           {"file_name", "path"}};
    json slots = json::object();
    for (const auto &[name, generator] : expected.items()) {
        slots[name] = slot("string");
    }
    const json generators = faker_json(faker_request(slots, 1))["generators"];
    for (const auto &[name, generator] : expected.items()) {
        const std::string want = generator == "zip" ? "postcode" : generator.get<std::string>();
        EXPECT_EQ(generators[name], want) << name;
    }
}

TEST(FakerStub, TypesOtherThanTextIgnoreHints) {
    const json slots = {{"zip", {{"type", "int"}, {"min", 10000.0}, {"max", 99999.0}}},
                        {"email", slot("bool")},
                        {"first_name", slot("name")},
                        {"author", slot("name")},
                        {"birthday", slot("date")}};
    const json answer = faker_json(faker_request(slots, 50, 3));
    EXPECT_EQ(answer["generators"], json({{"zip", "integer"},
                                          {"email", "boolean"},
                                          {"first_name", "first_name"},
                                          {"author", "full_name"},
                                          {"birthday", "birthday"}}));
    for (const json &set : answer["input_sets"]) {
        EXPECT_TRUE(set["zip"].is_number_integer());
        EXPECT_TRUE(set["email"].is_boolean());
        EXPECT_TRUE(matches(set["birthday"], R"((19[4-9]\d|200[0-6])-\d\d-\d\d)")) << set;
    }
}

TEST(FakerStub, ValuesLookLikeWhatTheyAre) {
    const json slots = {{"email", slot("email")},     {"url", slot("url")},
                        {"phone", slot("string")},    {"zip", slot("string")},
                        {"when", slot("date")},       {"file", slot("path")},
                        {"blob", slot("bytes")},      {"name", slot("name")},
                        {"username", slot("string")}, {"note", slot("string")}};
    const json answer = faker_json(faker_request(slots, 200, 5));
    for (const json &set : answer["input_sets"]) {
        EXPECT_TRUE(matches(set["email"], R"([a-z0-9._]+@(example\.(com|org|net)))")) << set;
        EXPECT_TRUE(
            matches(set["url"], R"(https://www\.[a-z0-9-]+\.example\.(com|org|net)/[a-z-]+)"))
            << set;
        EXPECT_TRUE(matches(set["phone"], R"([0-9+(). -]{10,})")) << set;
        EXPECT_TRUE(matches(set["zip"], R"(\d{5})")) << set;
        EXPECT_TRUE(matches(set["when"], R"((19[7-9]\d|20[0-3]\d)-(0[1-9]|1[0-2])-[0-3]\d)"))
            << set;
        // Relative, inside the workspace.
        EXPECT_TRUE(matches(set["file"], R"([a-z]+/[a-z]+_20[12]\d\.(txt|csv|json|md|pdf))"))
            << set;
        EXPECT_TRUE(matches(set["blob"], R"(([0-9a-f]{2}){8,32})")) << set;
        EXPECT_TRUE(matches(set["name"], R"([A-Z][a-z]+ [A-Z][a-z]+)")) << set;
        EXPECT_TRUE(matches(set["username"], R"([a-z0-9._]+)")) << set;
        EXPECT_TRUE(matches(set["note"], R"([a-z]+( [a-z]+){1,3})")) << set;
    }
}

TEST(FakerStub, NumbersRespectBoundsInEveryCombination) {
    const json slots = {{"neither", slot("int")},
                        {"only_min", {{"type", "int"}, {"min", 5.0}}},
                        {"only_max", {{"type", "int"}, {"max", -3.0}}},
                        {"both", {{"type", "int"}, {"min", -10.0}, {"max", -7.0}}},
                        {"equal", {{"type", "int"}, {"min", 4.0}, {"max", 4.0}}},
                        {"fraction", {{"type", "int"}, {"min", 0.5}, {"max", 2.5}}},
                        {"f_neither", slot("float")},
                        {"f_only_min", {{"type", "float"}, {"min", 2.5}}},
                        {"f_only_max", {{"type", "float"}, {"max", -0.5}}},
                        {"f_both", {{"type", "float"}, {"min", 0.25}, {"max", 0.26}}},
                        {"f_equal", {{"type", "float"}, {"min", 1.5}, {"max", 1.5}}}};
    const json answer = faker_json(faker_request(slots, 300, 9));
    std::set<int64_t> both;
    for (const json &set : answer["input_sets"]) {
        for (const char *name : {"neither", "only_min", "only_max", "both", "equal", "fraction"}) {
            ASSERT_TRUE(set[name].is_number_integer()) << name << " " << set[name];
        }
        EXPECT_GE(set["neither"].get<int64_t>(), 0);
        EXPECT_GE(set["only_min"].get<int64_t>(), 5);
        EXPECT_LE(set["only_max"].get<int64_t>(), -3);
        EXPECT_GE(set["both"].get<int64_t>(), -10);
        EXPECT_LE(set["both"].get<int64_t>(), -7);
        both.insert(set["both"].get<int64_t>());
        EXPECT_EQ(set["equal"], 4);
        EXPECT_GE(set["fraction"].get<int64_t>(), 1);
        EXPECT_LE(set["fraction"].get<int64_t>(), 2);
        for (const char *name : {"f_neither", "f_only_min", "f_only_max", "f_both", "f_equal"}) {
            ASSERT_TRUE(set[name].is_number_float()) << name << " " << set[name];
        }
        EXPECT_GE(set["f_only_min"].get<double>(), 2.5);
        EXPECT_LE(set["f_only_max"].get<double>(), -0.5);
        EXPECT_GE(set["f_both"].get<double>(), 0.25);
        EXPECT_LE(set["f_both"].get<double>(), 0.26);
        EXPECT_EQ(set["f_equal"].get<double>(), 1.5);
    }
    EXPECT_EQ(both, (std::set<int64_t>{-10, -9, -8, -7}));  // both ends are reachable
}

TEST(FakerStub, EnumBoolAndTextLengths) {
    const json slots = {{"colour", {{"type", "enum"}, {"values", {"red", "green", "blue"}}}},
                        {"flag", slot("bool")},
                        {"short", {{"type", "string"}, {"max", 6.0}}},
                        {"long", {{"type", "string"}, {"min", 40.0}, {"max", 45.0}}}};
    std::set<json> colours;
    std::set<bool> flags;
    for (const char *locale : {"en_US", "de_DE"}) {
        const json answer = faker_json(faker_request(slots, 100, 2), {{"locale", locale}});
        for (const json &set : answer["input_sets"]) {
            colours.insert(set["colour"]);
            flags.insert(set["flag"].get<bool>());
            // Characters, not bytes: umlauts count once.
            const auto chars = [](const json &v) {
                std::size_t n = 0;
                for (const char c : v.get<std::string>()) {
                    n += (static_cast<unsigned char>(c) & 0xC0U) != 0x80U ? 1 : 0;
                }
                return n;
            };
            EXPECT_LE(chars(set["short"]), 6U) << set["short"];
            EXPECT_GE(chars(set["long"]), 40U) << set["long"];
            EXPECT_LE(chars(set["long"]), 45U) << set["long"];
        }
    }
    EXPECT_EQ(colours, (std::set<json>{"red", "green", "blue"}));
    EXPECT_EQ(flags, (std::set<bool>{false, true}));
}

TEST(FakerStub, LocaleFromConfigurationOrPreset) {
    const json slots = {{"city", slot("string")}, {"phone", slot("string")}};
    const json request = faker_request(slots, 30, 4);
    const std::string en = faker_text(request);
    const std::string de = faker_text(request, {{"locale", "de_DE"}});
    EXPECT_EQ(en, faker_text(request, {{"locale", "en_US"}}));  // en_US is the default
    EXPECT_NE(en, de);
    // The preset overrides the configuration, per request.
    const json german = faker_request(slots, 30, 4, {{"SANDBOX_FAKER_LOCALE", "de_DE"}});
    EXPECT_EQ(faker_text(german), de);
    const json english = faker_request(slots, 30, 4, {{"SANDBOX_FAKER_LOCALE", "en_US"}});
    EXPECT_EQ(faker_text(english, {{"locale", "de_DE"}}), en);
    const json german_sets = json::parse(de)["input_sets"];
    for (const json &set : german_sets) {
        EXPECT_TRUE(matches(set["phone"], R"((0|\+49 )[0-9() ]+)")) << set;
    }
}

TEST(FakerStub, GermanNamesKeepUmlautsAndEmailsTransliterateThem) {
    const json slots = {{"last_name", slot("string")}, {"email", slot("email")}};
    const json answer = faker_json(faker_request(slots, 300, 6), {{"locale", "de_DE"}});
    bool umlaut = false;
    for (const json &set : answer["input_sets"]) {
        const std::string name = set["last_name"].get<std::string>();
        umlaut =
            umlaut || name.find("ü") != std::string::npos || name.find("ö") != std::string::npos;
        EXPECT_TRUE(matches(set["email"], R"([a-z0-9._]+@[a-z.]+)")) << set;
    }
    EXPECT_TRUE(umlaut);
}

TEST(FakerStub, JsonSlotFollowsItsSchema) {
    const json schema = {
        {"type", "object"},
        {"properties",
         {{"id", {{"type", "integer"}, {"minimum", 100}, {"maximum", 200}}},
          {"email", {{"type", "string"}}},
          {"score", {{"type", "number"}, {"exclusiveMinimum", 0}, {"maximum", 1}}},
          {"kind", {{"enum", {"a", "b"}}}},
          {"tags",
           {{"type", "array"}, {"items", {{"type", "string"}}}, {"minItems", 2}, {"maxItems", 4}}},
          {"when", {{"type", "string"}, {"format", "date"}}},
          {"code", {{"type", "string"}, {"minLength", 3}, {"maxLength", 5}}},
          {"ok", {{"type", "boolean"}}},
          {"nested", {{"type", "object"}, {"properties", {{"city", {{"type", "string"}}}}}}}}}};
    const json slots = {{"payload", {{"type", "json"}, {"schema", schema}}}};
    const json answer = faker_json(faker_request(slots, 100, 8));  // outlives the loop
    for (const json &set : answer["input_sets"]) {
        const json &p = set["payload"];
        ASSERT_TRUE(p.is_object()) << p;
        EXPECT_EQ(p.size(), 9U) << p;
        EXPECT_GE(p["id"].get<int64_t>(), 100);
        EXPECT_LE(p["id"].get<int64_t>(), 200);
        EXPECT_TRUE(matches(p["email"], R"([a-z0-9._]+@example\.(com|org|net))")) << p;
        EXPECT_GT(p["score"].get<double>(), 0.0);
        EXPECT_LE(p["score"].get<double>(), 1.0);
        EXPECT_TRUE(p["kind"] == "a" || p["kind"] == "b");
        EXPECT_GE(p["tags"].size(), 2U);
        EXPECT_LE(p["tags"].size(), 4U);
        EXPECT_TRUE(matches(p["when"], R"(\d{4}-\d\d-\d\d)"));
        EXPECT_GE(p["code"].get<std::string>().size(), 3U);
        EXPECT_LE(p["code"].get<std::string>().size(), 5U);
        EXPECT_TRUE(p["ok"].is_boolean());
        EXPECT_TRUE(p["nested"]["city"].is_string());
    }
}

TEST(FakerStub, JsonSlotKeepsTheShapeOfItsExample) {
    const json example = {{"id", 1},
                          {"name", "Ada"},
                          {"contact", {{"email", "ada@example.com"}, {"phone", "555"}}},
                          {"scores", {1.5, 2.5, 3.5}},
                          {"admin", false},
                          {"note", nullptr}};
    const json slots = {{"record", {{"type", "json"}, {"example", example}}},
                        {"plain", slot("json")}};
    bool changed = false;
    const json answer = faker_json(faker_request(slots, 20, 12));
    for (const json &set : answer["input_sets"]) {
        const json &r = set["record"];
        ASSERT_TRUE(r.is_object());
        EXPECT_EQ(r.size(), example.size());
        EXPECT_TRUE(r["id"].is_number_integer());
        EXPECT_TRUE(matches(r["name"], R"([A-Z][a-z]+ [A-Z][a-z]+)")) << r;
        EXPECT_TRUE(matches(r["contact"]["email"], R"([a-z0-9._]+@example\.(com|org|net))")) << r;
        EXPECT_TRUE(matches(r["contact"]["phone"], R"([0-9+(). -]{10,})")) << r;
        EXPECT_EQ(r["scores"].size(), 3U);
        EXPECT_TRUE(r["scores"][0].is_number_float());
        EXPECT_TRUE(r["admin"].is_boolean());
        EXPECT_TRUE(r["note"].is_null());
        EXPECT_TRUE(set["plain"].is_object());
        EXPECT_TRUE(set["plain"].contains("email"));
        changed = changed || r != example;
    }
    EXPECT_TRUE(changed);
}

TEST(FakerStub, CountZeroAndNoSlots) {
    EXPECT_EQ(faker_text(faker_request({{"a", slot("string")}}, 0)),
              R"({"input_sets":[],"generators":{"a":"text"}})");
    EXPECT_EQ(faker_text(faker_request(json::object(), 2)),
              R"({"input_sets":[{},{}],"generators":{}})");
}

void expect_refused(const json &request, const json &config, const std::string &needle) {
    try {
        faker_text(request, config);
        ADD_FAILURE() << "accepted " << request.dump();
    } catch (const std::exception &e) {
        EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
}

TEST(FakerStub, BadBoundsAndLocalesAreRefusedByName) {
    const json bad_range = {{"n", {{"type", "int"}, {"min", 5.0}, {"max", 3.0}}}};
    // Refused even when no set is asked for.
    expect_refused(faker_request(bad_range, 0), json::object(),
                   "faker: slot 'n': min 5.0 is above max 3.0");
    expect_refused(faker_request({{"n", {{"type", "int"}, {"min", 0.2}, {"max", 0.8}}}}, 1),
                   json::object(), "no 64-bit whole number");
    expect_refused(faker_request({{"s", {{"type", "string"}, {"min", 9.0}, {"max", 2.0}}}}, 1),
                   json::object(), "faker: slot 's': min is above max");
    expect_refused(
        faker_request({{"j",
                        {{"type", "json"},
                         {"schema", {{"type", "integer"}, {"minimum", 3}, {"maximum", 1}}}}}},
                      0),
        json::object(), "faker: slot 'j': schema: min 3.0 is above max 1.0");
    expect_refused(
        faker_request({{"a", slot("string")}}, 1, 1, {{"SANDBOX_FAKER_LOCALE", "fr_FR"}}),
        json::object(),
        "preset SANDBOX_FAKER_LOCALE \"fr_FR\" is not a locale; known locales: de_DE, en_US");
}

TEST(FakerStub, BadConfigurationIsRefused) {
    // The schema refuses what is not a string; the plugin refuses an unknown locale.
    EXPECT_THROW(faker({{"locale", "xx_XX"}}), std::exception);
    EXPECT_THROW(faker({{"colour", "red"}}), std::exception);
    EXPECT_THROW(faker({{"locale", 3}}), std::exception);
}

TEST(FakerStub, ListSlotsGetOneToThreeHintedValues) {
    const json slots = {{"emails", slot("list")}, {"files", slot("list")}, {"words", slot("list")}};
    const json answer = faker_json(faker_request(slots, 60, 5));
    // The plural names its items: `emails` holds emails, `files` paths.
    EXPECT_EQ(answer["generators"],
              json({{"emails", "email"}, {"files", "path"}, {"words", "text"}}));
    std::set<std::size_t> sizes;
    for (const json &set : answer["input_sets"]) {
        for (const auto &[name, list] : set.items()) {
            ASSERT_TRUE(list.is_array()) << name << " = " << list;
            sizes.insert(list.size());
            for (const json &item : list) {
                ASSERT_TRUE(item.is_string()) << list;
                if (name == "emails") {
                    EXPECT_TRUE(matches(item, R"([^@ ]+@[^@ ]+\.[a-z]+)")) << item;
                }
            }
        }
    }
    EXPECT_EQ(sizes, (std::set<std::size_t>{1, 2, 3}));
}

}  // namespace
}  // namespace sbx::stubs_test
