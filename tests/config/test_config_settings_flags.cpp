// The effective settings of a command (config/settings_flags): the flags over the
// variables over the file.
#include <gtest/gtest.h>

#include <cstring>

#include "config/settings_flags.hpp"

namespace sbx::config {
namespace {

DefaultSettings defaults() {
    return {"data_dir: from_defaults\nlog_level: debug\n", "defaults"};
}

const char *no_variables(const char *) {
    return nullptr;
}

TEST(EffectiveSettings, WithoutFlagsTheDefaultsAsLoaded) {
    const auto settings = effective_settings({}, defaults(), no_variables);
    EXPECT_EQ(settings.source, "defaults");
    EXPECT_EQ(settings.data_dir, "from_defaults");
    EXPECT_EQ(settings.log_level, "debug");
    EXPECT_FALSE(settings.plugin_host.strict);
}

TEST(EffectiveSettings, TheFlagsWinOverTheVariables) {
    const auto variables = [](const char *name) -> const char * {
        return std::strcmp(name, "SANDBOX_DATA_DIR") == 0 ? "from_variable" : nullptr;
    };
    EXPECT_EQ(effective_settings({}, defaults(), variables).data_dir, "from_variable");
    SettingsFlags flags;
    flags.data_dir = "from_flag";
    flags.plugin_dirs = {"first"};
    flags.strict_plugins = true;
    flags.json_logs = true;
    const auto settings = effective_settings(flags, defaults(), variables);
    EXPECT_EQ(settings.data_dir, "from_flag");
    ASSERT_FALSE(settings.plugin_dirs.empty());
    EXPECT_EQ(settings.plugin_dirs.front(), "first");
    EXPECT_TRUE(settings.plugin_host.strict);
    EXPECT_TRUE(settings.json_logs);
}

TEST(EffectiveSettings, QuietIsWarnUnlessALogLevelIsGiven) {
    SettingsFlags flags;
    flags.quiet = true;
    EXPECT_EQ(effective_settings(flags, defaults(), no_variables).log_level, "warn");
    flags.log_level = "trace";
    EXPECT_EQ(effective_settings(flags, defaults(), no_variables).log_level, "trace");
}

}  // namespace
}  // namespace sbx::config
