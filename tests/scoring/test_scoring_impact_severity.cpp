// The impact severity table: the built-in values, the shipped file, overrides from a YAML
// file or IMPACT_SEVERITY_CONFIG, and errors that point at file:line:column.
#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "scoring/impact_severity.hpp"
#include "util/errors.hpp"
#include "util/temp_dir.hpp"

namespace sbx::scoring {
namespace {

std::map<std::string, double> built_in() {
    return {{"critical", 0.9}, {"experimental", 0.2}, {"low", 0.1}, {"standard", 0.5}};
}

class ImpactSeverityFile : public ::testing::Test {
  protected:
    // A file of `text` in the test's own directory.
    std::string write(const std::string &name, const std::string &text) {
        const std::filesystem::path path = dir_.path() / name;
        std::ofstream(path) << text;
        return path.string();
    }
    // The message of the InputError that loading `text` raises.
    std::string error_of(const std::string &text) {
        const std::string path = write("impact.yaml", text);
        try {
            load_impact_severity(path);
        } catch (const InputError &error) {
            return error.what();
        }
        return "(accepted)";
    }

    TempDir dir_{std::filesystem::temp_directory_path(), "sbx-impact-"};
};

std::function<const char *(const char *)> environment(std::map<std::string, std::string> vars) {
    return [vars = std::move(vars)](const char *name) -> const char * {
        auto found = vars.find(name);
        return found == vars.end() ? nullptr : found->second.c_str();
    };
}

bool starts_with(const std::string &text, const std::string &prefix) {
    return text.compare(0, prefix.size(), prefix) == 0;
}

TEST(ImpactSeverity, BuiltInTable) {
    EXPECT_EQ(ImpactSeverity{}.by_type, built_in());
}

TEST(ImpactSeverity, TheShippedFileHoldsTheBuiltInTable) {
    EXPECT_EQ(load_impact_severity(SBX_SOURCE_DIR "/config/impact_severity.yaml").by_type,
              built_in());
}

TEST_F(ImpactSeverityFile, EntriesAddToAndReplaceTheBuiltInOnes) {
    const auto severity = load_impact_severity(write("a.yaml", "critical: 0.95\nbatch: 0.3\n"));
    EXPECT_DOUBLE_EQ(severity.by_type.at("critical"), 0.95);
    EXPECT_DOUBLE_EQ(severity.by_type.at("batch"), 0.3);
    EXPECT_DOUBLE_EQ(severity.by_type.at("standard"), 0.5);
    EXPECT_EQ(severity.by_type.size(), 5u);
}

TEST_F(ImpactSeverityFile, EmptyOrCommentOnlyFilesChangeNothing) {
    EXPECT_EQ(load_impact_severity(write("empty.yaml", "")).by_type, built_in());
    EXPECT_EQ(load_impact_severity(write("comment.yaml", "# nothing\n")).by_type, built_in());
}

TEST_F(ImpactSeverityFile, BoundsAreInclusive) {
    const auto severity = load_impact_severity(write("b.yaml", "low: 0\ncritical: 1\n"));
    EXPECT_DOUBLE_EQ(severity.by_type.at("low"), 0);
    EXPECT_DOUBLE_EQ(severity.by_type.at("critical"), 1);
}

TEST_F(ImpactSeverityFile, ValueThatIsNotANumber) {
    const std::string path = (dir_.path() / "impact.yaml").string();
    EXPECT_EQ(error_of("standard: 0.5\ncritical: high\n"),
              path +
                  ":2:11: the severity of 'critical' must be a number from 0 to 1, not "
                  "'high'; write e.g. 'critical: 0.5'");
}

TEST_F(ImpactSeverityFile, ValuesOutOfRange) {
    const std::string path = (dir_.path() / "impact.yaml").string();
    EXPECT_TRUE(starts_with(error_of("low: 1.5\n"),
                            path + ":1:6: the severity of 'low' must be a number from 0 to 1, "
                                   "not '1.5'"));
    EXPECT_TRUE(starts_with(error_of("low: -0.1\n"), path + ":1:6:"));
    EXPECT_TRUE(starts_with(error_of("low: .nan\n"), path + ":1:6:"));
}

TEST_F(ImpactSeverityFile, EmptyValuePointsAtTheKey) {
    const std::string path = (dir_.path() / "impact.yaml").string();
    EXPECT_TRUE(starts_with(error_of("standard: 0.5\nlow:\n"),
                            path + ":2:1: the severity of 'low' must be a number from 0 to 1, "
                                   "not empty"));
}

TEST_F(ImpactSeverityFile, ListValueAndListDocument) {
    const std::string path = (dir_.path() / "impact.yaml").string();
    EXPECT_TRUE(starts_with(error_of("low: [0.1]\n"), path +
                                                          ":1:6: the severity of 'low' must "
                                                          "be a number from 0 to 1, not a list"));
    EXPECT_TRUE(starts_with(error_of("- 0.5\n"),
                            path + ":1:1: the impact severity file must be a mapping of workflow "
                                   "type to severity, not a list"));
}

TEST_F(ImpactSeverityFile, TypeWrittenTwice) {
    const std::string path = (dir_.path() / "impact.yaml").string();
    EXPECT_EQ(error_of("low: 0.1\nlow: 0.2\n"),
              path + ":2:1: type 'low' is written twice (first at line 1); keep one of them");
}

TEST_F(ImpactSeverityFile, InvalidYamlNamesThePosition) {
    const std::string path = (dir_.path() / "impact.yaml").string();
    const std::string message = error_of("low: 0.1\ncritical: [0.9\n");
    EXPECT_TRUE(starts_with(message, path + ":3:1: this is not valid YAML")) << message;
}

TEST_F(ImpactSeverityFile, MissingFile) {
    const std::string path = (dir_.path() / "missing.yaml").string();
    try {
        load_impact_severity(path);
        FAIL() << "read a missing file";
    } catch (const InputError &error) {
        EXPECT_TRUE(starts_with(error.what(), path + ": cannot read the impact severity file"))
            << error.what();
    }
}

TEST_F(ImpactSeverityFile, EnvironmentVariableWinsOverTheDefaultPath) {
    const std::string named = write("named.yaml", "low: 0.05\n");
    const std::string fallback = write("default.yaml", "low: 0.15\n");
    EXPECT_DOUBLE_EQ(
        impact_severity_from_environment(fallback, environment({{"IMPACT_SEVERITY_CONFIG", named}}))
            .by_type.at("low"),
        0.05);
    EXPECT_DOUBLE_EQ(impact_severity_from_environment(fallback, environment({})).by_type.at("low"),
                     0.15);
    // An empty variable counts as unset.
    EXPECT_DOUBLE_EQ(
        impact_severity_from_environment(fallback, environment({{"IMPACT_SEVERITY_CONFIG", ""}}))
            .by_type.at("low"),
        0.15);
}

TEST_F(ImpactSeverityFile, MissingDefaultFileGivesTheBuiltInTable) {
    EXPECT_EQ(impact_severity_from_environment(dir_.path() / "none.yaml", environment({})).by_type,
              built_in());
}

TEST_F(ImpactSeverityFile, MissingFileNamedByTheVariableIsAnError) {
    const std::string missing = (dir_.path() / "missing.yaml").string();
    try {
        impact_severity_from_environment("", environment({{"IMPACT_SEVERITY_CONFIG", missing}}));
        FAIL() << "ignored a missing IMPACT_SEVERITY_CONFIG file";
    } catch (const InputError &error) {
        const std::string message = error.what();
        EXPECT_TRUE(starts_with(message, missing + ": cannot read")) << message;
        EXPECT_NE(message.find("set IMPACT_SEVERITY_CONFIG to a readable YAML file"),
                  std::string::npos)
            << message;
    }
}

}  // namespace
}  // namespace sbx::scoring
