// The hostile catalogue: the built-in payloads (count, categories, distinctness), user
// payload files from config and SANDBOX_HOSTILE_PAYLOADS, and errors that name the file.
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "command.hpp"
#include "hostile_fixture.hpp"

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

    const json answer = generate(*stub, request({{"s", "string"}}, 1024));
    std::set<std::string> values;
    for (const json &set : answer["input_sets"]) {
        values.insert(set["s"].get<std::string>());
    }
    EXPECT_EQ(values.size(), indexes.size()) << "no two payloads are the same string";
    const auto categories = categories_of(answer, "s");
    EXPECT_GE(categories.size(), 12U);
    for (const auto &category : kRequiredCategories) {
        EXPECT_TRUE(categories.count(category)) << category;
    }
}

TEST_F(HostileCatalogue, GeneratesOversizedPayloadsAtLoad) {
    auto stub = hostile();
    const json answer = generate(*stub, request({{"s", "string"}}, 1024));
    std::size_t longest = 0;
    bool deep_nesting = false;
    for (const json &set : answer["input_sets"]) {
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
    const json answer = generate(*stub, request({{"s", "string"}}, 1024));
    std::set<std::string> values;
    for (const json &set : answer["input_sets"]) {
        values.insert(set["s"].get<std::string>());
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

    setenv("SANDBOX_HOSTILE_PAYLOADS", broken.c_str(), 1);
    expect_refused(json::object(), broken, "not valid JSON");
}

}  // namespace
}  // namespace sbx::stubs_test
