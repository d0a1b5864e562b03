// What a command says after its results about the plugins its session disabled
// (engine/session_bookkeeping): a reminder per plugin, and why --strict-plugins exits 3.
#include <gtest/gtest.h>

#include "engine/session_bookkeeping.hpp"

namespace sbx::engine {
namespace {

store::PluginFailure failure(const std::string &id, const std::string &kind,
                             const std::string &failure_name) {
    store::PluginFailure entry;
    entry.id = id;
    entry.kind = kind;
    entry.call = kind == "predictor" ? "predict" : "collect";
    entry.failure = failure_name;
    entry.context = "run 12";
    return entry;
}

TEST(DisabledPlugins, TheReminderSaysTheFailureInWordsAndWhatIsMissing) {
    EXPECT_EQ(disabled_plugin_reminder(failure("slow", "predictor", "hang")),
              "warning: plugin slow was disabled after a hang in predict (run 12): its forecasts "
              "are absent from there on; the warning above says how to replay it");
    EXPECT_EQ(disabled_plugin_reminder(failure("odd", "metrics", "something_new")),
              "warning: plugin odd was disabled after something_new in collect (run 12): its "
              "metrics are absent from there on; the warning above says how to replay it");
}

TEST(DisabledPlugins, TheStrictRefusalNamesEveryPlugin) {
    EXPECT_EQ(strict_plugins_refusal({failure("a", "metrics", "crash")}),
              "sandbox-runner: 1 plugin was disabled after a failed call (a); exit 3 as "
              "--strict-plugins (plugin_host.strict) asks");
    EXPECT_EQ(strict_plugins_refusal(
                  {failure("a", "metrics", "crash"), failure("b", "predictor", "memory")}),
              "sandbox-runner: 2 plugins were disabled after a failed call (a, b); exit 3 as "
              "--strict-plugins (plugin_host.strict) asks");
}

}  // namespace
}  // namespace sbx::engine
