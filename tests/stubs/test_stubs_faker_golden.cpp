// Golden test of the faker stub: a fixed seed's output for a fixed slot set, in every
// locale, byte for byte against tests/stubs/golden/faker_<locale>.json. Any change to the
// generator, the PRNG or a word list changes recorded seeds' inputs and must show here.
// To accept a deliberate change: SBX_UPDATE_GOLDEN=1 ctest --test-dir build -R FakerGolden
// rewrites the files (the test reports itself skipped); review and commit the diff.
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "faker_fixture.hpp"

namespace sbx::stubs_test {
namespace {

// Every type, every name hint, and the bounds that matter; kept fixed forever.
json golden_slots() {
    json slots = json::object();
    for (const char *name :
         {"first_name", "last_name", "full_name", "user_email", "website", "phone", "company",
          "street", "city", "zip", "country", "address", "username", "birthday", "note"}) {
        slots[name] = slot("string");
    }
    slots["email"] = slot("email");
    slots["homepage"] = slot("url");
    slots["author"] = slot("name");
    slots["due"] = slot("date");
    slots["report"] = slot("path");
    slots["token"] = slot("bytes");
    slots["active"] = slot("bool");
    slots["count"] = {{"type", "int"}, {"min", 1.0}, {"max", 10.0}};
    slots["offset"] = {{"type", "int"}, {"max", -5.0}};
    slots["ratio"] = {{"type", "float"}, {"min", 0.0}, {"max", 1.0}};
    slots["colour"] = {{"type", "enum"}, {"values", {"red", "green", "blue"}}};
    slots["record"] = {{"type", "json"},
                       {"example", {{"id", 7}, {"name", "Ada"}, {"tags", {"a", "b"}}}}};
    slots["order"] = {{"type", "json"},
                      {"schema",
                       {{"type", "object"},
                        {"properties",
                         {{"customer_email", {{"type", "string"}, {"format", "email"}}},
                          {"quantity", {{"type", "integer"}, {"minimum", 1}, {"maximum", 5}}},
                          {"status", {{"enum", {"new", "paid"}}}},
                          {"created", {{"type", "string"}, {"format", "date-time"}}}}}}}};
    return slots;
}

std::string golden_path(const std::string &locale) {
    return std::string(SBX_GOLDEN_DIR) + "/faker_" + locale + ".json";
}

std::string read_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

void check_golden(const std::string &locale) {
    const std::string actual =
        faker_text(faker_request(golden_slots(), 3, 20240601), {{"locale", locale}}) + "\n";
    const std::string path = golden_path(locale);
    const char *update = std::getenv("SBX_UPDATE_GOLDEN");
    if (update != nullptr && std::string(update) == "1") {
        std::ofstream(path, std::ios::binary) << actual;
        GTEST_SKIP() << "rewrote " << path;
    }
    const std::string expected = read_file(path);
    ASSERT_FALSE(expected.empty()) << path << " is missing; SBX_UPDATE_GOLDEN=1 writes it";
    EXPECT_EQ(actual, expected) << "faker output changed for locale " << locale
                                << ". If deliberate, rerun with "
                                << "SBX_UPDATE_GOLDEN=1 and commit " << path;
}

TEST(FakerGolden, EnUsMatchesTheCheckedInFile) {
    check_golden("en_US");
}

TEST(FakerGolden, DeDeMatchesTheCheckedInFile) {
    check_golden("de_DE");
}

}  // namespace
}  // namespace sbx::stubs_test
