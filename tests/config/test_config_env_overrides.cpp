// SANDBOX_* environment variables over loaded settings, through a fake getenv.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "config/load_settings.hpp"
#include "util/errors.hpp"

namespace sbx::config {
namespace {

// A getenv over a fixed set of variables.
struct FakeEnvironment {
    std::map<std::string, std::string> variables;

    std::function<const char *(const char *)> getenv() const {
        return [this](const char *name) -> const char * {
            auto found = variables.find(name);
            return found == variables.end() ? nullptr : found->second.c_str();
        };
    }
};

Settings base() {
    return load_settings_text(
        "plugin_dirs: [plugins]\nexecutor: local\nworkers: 2\nlog_level: warn\n", "base.yaml");
}

std::string error_of(const std::map<std::string, std::string> &variables) {
    FakeEnvironment env{variables};
    Settings settings = base();
    try {
        apply_environment(settings, env.getenv());
    } catch (const InputError &error) {
        return error.what();
    }
    return "(accepted)";
}

TEST(ApplyEnvironment, NoVariablesChangeNothing) {
    FakeEnvironment env;
    Settings settings = base();
    apply_environment(settings, env.getenv());
    EXPECT_EQ(settings.plugin_dirs, std::vector<std::string>{"plugins"});
    EXPECT_EQ(settings.executor, "local");
    EXPECT_EQ(settings.executor_where.str(), "base.yaml:2:11");
    EXPECT_EQ(settings.workers, 2u);
    EXPECT_EQ(settings.log_level, "warn");
}

TEST(ApplyEnvironment, EveryVariable) {
    FakeEnvironment env{{{"SANDBOX_DATA_DIR", "/srv/data"},
                         {"SANDBOX_PLUGIN_DIRS", "/a::/b:"},
                         {"SANDBOX_METRICS_PLUGIN_DIR", "/m"},
                         {"SANDBOX_EXECUTOR", "docker"},
                         {"SANDBOX_STUB_STRATEGY", "hostile"},
                         {"SANDBOX_WORKERS", "8"},
                         {"SANDBOX_LOG_LEVEL", "trace"},
                         {"SANDBOX_JSON_LOGS", "1"},
                         {"SANDBOX_KEEP_WORKSPACES", "TRUE"},
                         {"SANDBOX_ALERT_COMMAND", "/usr/bin/notify  --channel ops"}}};
    Settings settings = base();
    apply_environment(settings, env.getenv());
    EXPECT_EQ(settings.data_dir, "/srv/data");
    EXPECT_EQ(settings.plugin_dirs, (std::vector<std::string>{"/a", "/b", "/m", "plugins"}));
    ASSERT_EQ(settings.plugin_dir_locations.size(), 4u);
    EXPECT_EQ(settings.plugin_dir_locations[0].str(), "environment variable SANDBOX_PLUGIN_DIRS");
    EXPECT_EQ(settings.plugin_dir_locations[2].str(),
              "environment variable SANDBOX_METRICS_PLUGIN_DIR");
    EXPECT_EQ(settings.plugin_dir_locations[3].str(), "base.yaml:1:15");
    EXPECT_EQ(settings.executor, "docker");
    EXPECT_EQ(settings.executor_where.str(), "environment variable SANDBOX_EXECUTOR");
    EXPECT_EQ(settings.stub_strategy, "hostile");
    EXPECT_EQ(settings.stub_strategy_where.str(), "environment variable SANDBOX_STUB_STRATEGY");
    EXPECT_EQ(settings.workers, 8u);
    EXPECT_EQ(settings.log_level, "trace");
    EXPECT_TRUE(settings.json_logs);
    EXPECT_TRUE(settings.keep_workspaces);
    EXPECT_EQ(settings.alert_command,
              (std::vector<std::string>{"/usr/bin/notify", "--channel", "ops"}));
}

TEST(ApplyEnvironment, SwitchesTurnOff) {
    FakeEnvironment env{{{"SANDBOX_JSON_LOGS", "false"}, {"SANDBOX_KEEP_WORKSPACES", "0"}}};
    Settings settings = load_settings_text("json_logs: true\nkeep_workspaces: true\n", "t.yaml");
    apply_environment(settings, env.getenv());
    EXPECT_FALSE(settings.json_logs);
    EXPECT_FALSE(settings.keep_workspaces);
}

TEST(ApplyEnvironment, EmptyValueCountsAsUnset) {
    FakeEnvironment env{{{"SANDBOX_EXECUTOR", ""}, {"SANDBOX_WORKERS", ""}}};
    Settings settings = base();
    apply_environment(settings, env.getenv());
    EXPECT_EQ(settings.executor, "local");
    EXPECT_EQ(settings.workers, 2u);
}

TEST(ApplyEnvironment, WorkersAuto) {
    FakeEnvironment env{{{"SANDBOX_WORKERS", "auto"}}};
    Settings settings = base();
    apply_environment(settings, env.getenv());
    EXPECT_GE(settings.workers, 1u);
}

TEST(ApplyEnvironment, BadValuesNameTheVariableAndWhatToWrite) {
    EXPECT_EQ(error_of({{"SANDBOX_ALERT_COMMAND", "  "}}),
              "environment variable SANDBOX_ALERT_COMMAND='  ': no command; set "
              "SANDBOX_ALERT_COMMAND to a command, e.g. /usr/local/bin/notify --channel ops, or "
              "unset it");
    EXPECT_EQ(error_of({{"SANDBOX_WORKERS", "0"}}),
              "environment variable SANDBOX_WORKERS='0': not a whole number from 1 to 1024 or "
              "auto; set SANDBOX_WORKERS to a number such as 4, or to auto for one per core");
    EXPECT_EQ(error_of({{"SANDBOX_WORKERS", "four"}})
                  .rfind("environment variable SANDBOX_WORKERS='four': ", 0),
              0u);
    EXPECT_EQ(
        error_of({{"SANDBOX_WORKERS", "-2"}}).rfind("environment variable SANDBOX_WORKERS", 0), 0u);
    EXPECT_EQ(error_of({{"SANDBOX_JSON_LOGS", "yes please"}}),
              "environment variable SANDBOX_JSON_LOGS='yes please': not an on/off value; set "
              "SANDBOX_JSON_LOGS to 1 or true (on), or 0 or false (off)");
    EXPECT_EQ(error_of({{"SANDBOX_KEEP_WORKSPACES", "2"}})
                  .rfind("environment variable SANDBOX_KEEP_WORKSPACES='2': not an on/off", 0),
              0u);
    EXPECT_EQ(error_of({{"SANDBOX_LOG_LEVEL", "warning"}}),
              "environment variable SANDBOX_LOG_LEVEL='warning': not a log level; did you mean "
              "'warn'? set it to one of trace, debug, info, warn, error, critical, off");
}

}  // namespace
}  // namespace sbx::config
