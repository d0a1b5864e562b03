// The hostile catalogue: the built-in payloads (count, categories, distinctness), user
// payload files from config and SANDBOX_HOSTILE_PAYLOADS, and errors that name the file.
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "command.hpp"
#include "hostile_fixture.hpp"

#include <sbx/bytes_value.hpp>

namespace sbx::stubs_test {
namespace {

const std::set<std::string> kRequiredCategories = {
    "sql_injection", "shell_injection", "template_injection",
    "script_xss",    "format_string",   "path_traversal",
    "xxe",           "oversized",       "malformed_json",
    "control_chars", "unicode",         "numeric_extremes",
    "reserved_names"};

json built_in_file() {
    std::ifstream in(SBX_HOSTILE_PAYLOADS_JSON);
    return json::parse(in);
}

class HostileCatalogue : public ::testing::Test {
  protected:
    void SetUp() override { dir_ = test::make_temp_dir("hostile"); }
    void TearDown() override {
        unsetenv("SANDBOX_HOSTILE_PAYLOADS");
        std::filesystem::remove_all(dir_);
    }
    std::string write(const std::string &name, const std::string &text) {
        const std::string path = dir_ + "/" + name;
        std::ofstream(path) << text;
        return path;
    }
    std::string dir_;
};

TEST_F(HostileCatalogue, DescribesAStubWithAClosedSchema) {
    const plugins::Descriptor &d = hostile_plugin()->descriptor();
    EXPECT_EQ(d.id, "hostile");
    EXPECT_EQ(d.kind, SBX_KIND_STUB);
    EXPECT_EQ(d.config_schema["additionalProperties"], false);
    EXPECT_TRUE(d.config_schema["properties"].contains("payload_files"));
    // The host refuses the typo against the schema before the plugin sees it.
    try {
        (void)hostile({{"payload_fils", json::array()}});
        ADD_FAILURE() << "an unknown configuration key must be refused";
    } catch (const sbx::InputError &e) {
        EXPECT_NE(std::string(e.what()).find("payload_fils"), std::string::npos) << e.what();
    }
}

TEST_F(HostileCatalogue, LoadsAtLeast400DistinctPayloadsIn12Categories) {
    auto stub = hostile();
    const auto indexes = payload_indexes(*stub);
    const json file = built_in_file();
    EXPECT_EQ(indexes.size(), file["payloads"].size()) << "every built-in payload is served";
    EXPECT_GE(indexes.size(), 400U);

    const json answer = generate(*stub, request({{"s", "string"}}, 2048));
    std::set<std::string> values;
    for (const json &set : answer["input_sets"]) {
        values.insert(set["s"].dump());  // strings and $bytes values alike
    }
    EXPECT_EQ(values.size(), indexes.size()) << "no two payloads are the same value";
    const auto categories = categories_of(answer, "s");
    EXPECT_GE(categories.size(), 12U);
    for (const auto &category : kRequiredCategories) {
        EXPECT_TRUE(categories.count(category)) << category;
    }
}

TEST_F(HostileCatalogue, GeneratesOversizedPayloadsAtLoad) {
    auto stub = hostile();
    const json answer = generate(*stub, request({{"s", "string"}}, 2048));
    std::size_t longest = 0;
    bool deep_nesting = false;
    for (const json &set : answer["input_sets"]) {
        if (!set["s"].is_string()) {
            continue;
        }
        const auto &value = set["s"].get_ref<const std::string &>();
        longest = std::max(longest, value.size());
        deep_nesting |= value.size() == 20000 && value.find_first_not_of('[') == 10000;
    }
    EXPECT_EQ(longest, 1024U * 1024U);
    EXPECT_TRUE(deep_nesting) << "10000 levels of [ ]";
}

TEST_F(HostileCatalogue, UserFilesFromConfigAndEnvironmentAddPayloads) {
    const std::size_t built_in = payload_indexes(*hostile()).size();
    const auto config_file =
        write("mine.json", R"({"payloads":[{"category":"custom","value":"x-from-config"},)"
                           R"({"category":"custom","generate":{"repeat":"ab","times":3}}]})");
    const auto env_file =
        write("env.json", R"({"payloads":[{"category":"sql_injection","value":"env'--"}]})");
    setenv("SANDBOX_HOSTILE_PAYLOADS", env_file.c_str(), 1);

    auto stub = hostile({{"payload_files", {config_file}}});
    EXPECT_EQ(payload_indexes(*stub).size(), built_in + 3);
    const json answer = generate(*stub, request({{"s", "string"}}, 2048));
    std::set<std::string> values;
    for (const json &set : answer["input_sets"]) {
        if (set["s"].is_string()) {
            values.insert(set["s"].get<std::string>());
        }
    }
    EXPECT_TRUE(values.count("x-from-config"));
    EXPECT_TRUE(values.count("ababab"));
    EXPECT_TRUE(values.count("env'--"));
    EXPECT_TRUE(categories_of(answer, "s").count("custom"));
}

// The loader's error carries the plugin's last_error; it must say which file is wrong.
void expect_refused(const json &config, const std::string &path, const std::string &detail) {
    try {
        hostile(config);
        ADD_FAILURE() << "accepted " << path;
    } catch (const plugins::PluginError &e) {
        const std::string message = e.what();
        EXPECT_NE(message.find(path), std::string::npos) << message;
        EXPECT_NE(message.find(detail), std::string::npos) << message;
    }
}

TEST_F(HostileCatalogue, BadUserFilesAreRefusedNamingTheFile) {
    const auto missing = dir_ + "/missing.json";
    expect_refused({{"payload_files", {missing}}}, missing, "cannot be opened");
    const auto broken = write("broken.json", R"({"payloads":[)");
    expect_refused({{"payload_files", {broken}}}, broken, "not valid JSON");
    const auto no_category = write("nocat.json", R"({"payloads":[{"value":"x"}]})");
    expect_refused({{"payload_files", {no_category}}}, no_category, "payloads[0]");
    const auto huge =
        write("huge.json",
              R"({"payloads":[{"category":"c","generate":{"repeat":"x","times":1000000000000}}]})");
    expect_refused({{"payload_files", {huge}}}, huge, "payloads[0]");

    const auto bad_bytes =
        write("bytes.json", R"({"payloads":[{"category":"c","bytes":"not base64!"}]})");
    expect_refused({{"payload_files", {bad_bytes}}}, bad_bytes, "'bytes' must be standard base64");
    const auto bad_rank =
        write("rank.json", R"({"payloads":[{"category":"c","value":"x","first":{"txt":1}}]})");
    expect_refused({{"payload_files", {bad_rank}}}, bad_rank, "'txt' is not one");
    const auto bad_part = write(
        "part.json", R"({"payloads":[{"category":"p","parts":[{"category":"a","value":1},{}]}]})");
    expect_refused({{"payload_files", {bad_part}}}, bad_part, "parts[1]");
    const auto bad_number =
        write("number.json", R"({"payloads":[{"category":"c","value":"12ab","number":true}]})");
    expect_refused({{"payload_files", {bad_number}}}, bad_number, "spells a JSON number");

    setenv("SANDBOX_HOSTILE_PAYLOADS", broken.c_str(), 1);
    expect_refused(json::object(), broken, "not valid JSON");
}

TEST_F(HostileCatalogue, UserFilesRankPolyglotsAndRawBytesFirst) {
    const auto file = write(
        "first.json",
        R"({"payloads":[{"category":"mine","bytes":"/w==","first":{"text":1}},)"
        R"({"category":"polyglot","first":{"text":1,"json":1},"parts":[)"
        R"({"category":"a","value":"<<"},{"category":"b","bytes":"/w=="},{"category":"a","value":">>"}]}]})");
    auto stub = hostile({{"payload_files", {file}}});
    const json answer = generate(*stub, request({{"s", "string"}}, 2));
    // Rank 1 of the user's file comes before the built-in rank 2, after the built-in rank 1
    // (ties keep catalogue order).
    EXPECT_EQ(answer["meta"][1]["s"]["category"], "mine");
    EXPECT_EQ(answer["input_sets"][1]["s"], json({{"$bytes", "/w=="}}));
    const json mixed = generate(*stub, request({{"s", "string"}}, 3));
    const json &poly = mixed["input_sets"][2]["s"];
    EXPECT_EQ(poly, json({{"$bytes", sbx::base64_encode("<<\xff>>")}})) << poly.dump();
    EXPECT_EQ(mixed["meta"][2]["s"]["parts"]["a"], "<<>>") << "a category's parts joined";
    EXPECT_EQ(mixed["meta"][2]["s"]["parts"]["b"], json({{"$bytes", "/w=="}}));
}

}  // namespace
}  // namespace sbx::stubs_test
