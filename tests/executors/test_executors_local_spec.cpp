// The local executor's contract with the host: its descriptor and schema, and refusal of bad
// configurations and bad run specs with SBX_INVALID before anything runs.
#include "local_executor_fixture.hpp"

namespace sbx::executors_test {
namespace {

TEST(LocalExecutorDescriptor, DescribesAnExecutorWithAClosedSchema) {
    const plugins::Descriptor &descriptor = local_plugin()->descriptor();
    EXPECT_EQ(descriptor.id, "local");
    EXPECT_EQ(descriptor.kind, SBX_KIND_EXECUTOR);
    EXPECT_EQ(descriptor.config_schema["additionalProperties"], false);
    for (const char *key :
         {"workspace_root", "output_bytes", "default_timeout_ms", "inherit_env", "cgroups"}) {
        EXPECT_TRUE(descriptor.config_schema["properties"].contains(key)) << key;
    }
    EXPECT_NE(local_plugin()->interface(SBX_EXECUTOR_V1), nullptr);
}

TEST(LocalExecutorConfig, RejectsUnknownKeysAndWrongTypes) {
    EXPECT_ANY_THROW((void)local_plugin()->create({{"bogus", 1}}));
    EXPECT_ANY_THROW((void)local_plugin()->create({{"output_bytes", "lots"}}));
    EXPECT_ANY_THROW((void)local_plugin()->create({{"cgroups", "sometimes"}}));
    EXPECT_NO_THROW((void)local_plugin()->create({{"cgroups", "off"}, {"output_bytes", 10}}));
}

TEST(LocalExecutorSpec, BadSpecsAreInvalid) {
    EXPECT_EQ(run_status({{"argv", json::array()}}), SBX_INVALID);
    EXPECT_EQ(run_status({{"env", {{"A", "b"}}}}), SBX_INVALID);
    EXPECT_EQ(run_status({{"argv", {"true"}}, {"files", {{"../escape", "x"}}}}), SBX_INVALID);
    EXPECT_EQ(run_status({{"argv", {"true"}}, {"files", {{"a/../../escape", "x"}}}}), SBX_INVALID);
    EXPECT_EQ(run_status({{"argv", {"true"}}, {"files", {{"/etc/absolute", "x"}}}}), SBX_INVALID);
    EXPECT_EQ(run_status({{"argv", {"true"}}, {"limits", {{"timeout_ms", -1}}}}), SBX_INVALID);
    EXPECT_EQ(run_status({{"argv", {"true"}}, {"workspace", "/nonexistent/folder"}}), SBX_INVALID);
    EXPECT_EQ(run_status({{"argv", {"true"}}}), SBX_OK);
}

}  // namespace
}  // namespace sbx::executors_test
