// ABI evolution: a plugin from the frozen v1.0 header, structs bigger and smaller than the
// host's, and a C++ plugin without exceptions/RTTI all load (or are refused) as promised.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "command.hpp"
#include "plugins/plugin.hpp"

namespace {

using sbx::test::run_command;

std::string evolution_fixture(const std::string &id) {
    return std::string(SBX_EVOLUTION_DIR) + "/" + id + ".so";
}

nlohmann::json predict_once(const std::string &id) {
    const auto plugin = sbx::plugins::load_plugin(evolution_fixture(id));
    auto instance = plugin->create(nlohmann::json::object());
    return nlohmann::json::parse(instance->predict(R"({"series":[1,2,3]})"));
}

// The frozen plugin stays forever: every later host (any minor >= 0) must load it.
TEST(FrozenV1_0Plugin, LoadsAndPredicts) {
    const auto verify =
        run_command({SBX_BINARY, "plugins", "verify", evolution_fixture("frozen_v1_0")});
    EXPECT_EQ(verify.exit_code, 0) << verify.err;
    EXPECT_NE(verify.out.find("ok: frozen_v1_0 1.0.0 (predictor, ABI 1.0)"), std::string::npos)
        << verify.out;
    EXPECT_DOUBLE_EQ(predict_once("frozen_v1_0")["value"].get<double>(), 0.42);
}

// Since ABI 1.1 the frozen plugins are exactly the "older minor" case: 1.0 under a 1.1 host.
TEST(FrozenV1_0Plugin, IsAnOlderMinor) {
    const auto plugin = sbx::plugins::load_plugin(evolution_fixture("frozen_v1_0"));
    EXPECT_EQ(plugin->abi().major, static_cast<uint32_t>(SBX_ABI_MAJOR));
    EXPECT_EQ(plugin->abi().minor, 0U);
    EXPECT_LT(plugin->abi().minor, static_cast<uint32_t>(SBX_ABI_MINOR));
    // ABI 1.2 appended active_by_default: a 1.0 descriptor's smaller struct reads as 0,
    // whatever lies in memory after it.
    EXPECT_LT(plugin->entry()->descriptor()->struct_size, sizeof(sbx_descriptor));
    EXPECT_FALSE(plugin->descriptor().active_by_default);
}

// ABI 1.1 appended `sweep` to sbx_executor_v1: a 1.0 executor's smaller table still runs,
// and the host reads its absent sweep as "nothing to remove" instead of calling past the
// end of the table.
TEST(FrozenV1_0Executor, RunsAndHasNothingToSweep) {
    const auto plugin = sbx::plugins::load_plugin(evolution_fixture("frozen_v1_0_executor"));
    EXPECT_EQ(plugin->abi().minor, 0U);
    auto instance = plugin->create(nlohmann::json::object());
    EXPECT_EQ(nlohmann::json::parse(instance->run(R"({"argv":["true"]})"))["status"], "OK");
    const auto swept =
        nlohmann::json::parse(instance->sweep(R"({"state_dir":"/nonexistent","dry_run":true})"));
    EXPECT_EQ(swept, nlohmann::json({{"removed", nlohmann::json::array()}}));
}

// ABI 1.3 appended `tally` to sbx_injector_v1: a 1.2 injector's smaller table prepares and
// tears down as before, and the host reads its absent tally as "{}" (prepare's word stands)
// instead of calling past the end of the table.
TEST(FrozenV1_2Injector, PreparesAndHasNoTally) {
    const auto plugin = sbx::plugins::load_plugin(evolution_fixture("frozen_v1_2_injector"));
    EXPECT_EQ(plugin->abi().minor, 2U);
    auto instance = plugin->create(nlohmann::json::object());
    const auto prepared = nlohmann::json::parse(instance->prepare(R"({"preset":{},"spec":{}})"));
    EXPECT_EQ(prepared["active"], true);
    EXPECT_EQ(instance->tally("null"), "{}");
    instance->teardown("null");
}

// A 1.3 injector written with plugin.hpp that does not override tally() gets the default.
TEST(CurrentInjector, DefaultTallyLeavesPreparesWord) {
    const auto plugin = sbx::plugins::load_plugin(SBX_TIMEOUT_INJECTOR_PATH);
    EXPECT_EQ(plugin->abi().minor, static_cast<uint32_t>(SBX_ABI_MINOR));
    auto instance = plugin->create(nlohmann::json::object());
    EXPECT_EQ(nlohmann::json::parse(instance->tally("null")), nlohmann::json::object());
}

// A 1.1 executor written with plugin.hpp that does not override sweep() gets the default.
TEST(CurrentExecutor, DefaultSweepRemovesNothing) {
    const auto plugin = sbx::plugins::load_plugin(SBX_LOCAL_EXECUTOR_PATH);
    EXPECT_EQ(plugin->abi().minor, static_cast<uint32_t>(SBX_ABI_MINOR));
    auto instance = plugin->create(nlohmann::json::object());
    const auto swept =
        nlohmann::json::parse(instance->sweep(R"({"state_dir":"/nonexistent","dry_run":false})"));
    EXPECT_EQ(swept, nlohmann::json({{"removed", nlohmann::json::array()}}));
}

TEST(BiggerStructs, HostReadsOnlyWhatItKnows) {
    const auto plugin = sbx::plugins::load_plugin(evolution_fixture("bigger_structs"));
    EXPECT_GT(plugin->entry()->struct_size, sizeof(sbx_plugin_entry));
    // The known schema field is read; the poisoned trailing field is not.
    EXPECT_EQ(plugin->descriptor().config_schema, nlohmann::json({{"type", "object"}}));
    EXPECT_EQ(plugin->descriptor().version, "2.0.0");
    EXPECT_EQ(predict_once("bigger_structs")["value"], 7);
}

TEST(OldDescriptor, IsZeroFilledSoTheSchemaIsAbsent) {
    const auto plugin = sbx::plugins::load_plugin(evolution_fixture("old_descriptor"));
    // Absent schema = the host's default: an object with no properties.
    EXPECT_EQ(plugin->descriptor().config_schema,
              nlohmann::json({{"type", "object"}, {"additionalProperties", false}}));
    EXPECT_EQ(predict_once("old_descriptor")["value"], 7);
}

TEST(TruncatedEntry, IsRefusedNamingTheSize) {
    const std::string file = evolution_fixture("truncated_entry");
    const auto result = run_command({SBX_BINARY, "plugins", "verify", file});
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_NE(result.err.find(file + ": entry struct is truncated (struct_size 64)"),
              std::string::npos)
        << result.err;
}

// Both no-exception fixtures count their calls per instance: load, use two instances.
void expect_per_instance_call_counts(const std::string &fixture) {
    const auto plugin = sbx::plugins::load_plugin(evolution_fixture(fixture));
    EXPECT_EQ(plugin->kind(), "metrics");
    auto first = plugin->create(nlohmann::json::object());
    auto second = plugin->create(nlohmann::json::object());
    (void)first->collect("{}");
    EXPECT_EQ(nlohmann::json::parse(first->collect("{}"))["calls"], 2);
    EXPECT_EQ(nlohmann::json::parse(second->collect("{}"))["calls"], 1);
}

TEST(NoExceptionsCppPlugin, TheCxxLayerWorksWithoutExceptions) {
    expect_per_instance_call_counts("no_exceptions_hpp");
}

TEST(NoExceptionsCppPlugin, PlainHeaderPluginLoadsAndKeepsPerInstanceState) {
    expect_per_instance_call_counts("no_exceptions");
}

}  // namespace
