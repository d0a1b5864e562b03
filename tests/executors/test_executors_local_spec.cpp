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

// The `raw` field (docs/abi.md): base64 of the exact bytes where the plain field holds their
// stand-in (U+FFFD for each invalid byte). "YcO/" is "a\xC3\xBF" (valid), "Yf8=" "a\xFF",
// "Yf8AYg==" "a\xFF\0b", "Zv4=" "f\xFE".
constexpr const char *kStandIn = "a\xEF\xBF\xBD";
std::string stand_in_with_nul() {
    return {"a\xEF\xBF\xBD\0b", 6};
}
// Each way in as hex on a line: stdin, the file (by a glob: its raw name), argv, env.
constexpr const char *kHexScript =
    "od -An -tx1 -v | tr -d ' \\n'; echo; od -An -tx1 -v f* | tr -d ' \\n'; echo; "
    "printf %s \"$1\" | od -An -tx1 -v | tr -d ' \\n'; echo; "
    "printf %s \"$V\" | od -An -tx1 -v | tr -d ' \\n'";

json hex_dump_spec() {
    return {{"argv", {"/bin/sh", "-c", kHexScript, "sh", kStandIn}},
            {"env", {{"V", kStandIn}}},
            {"stdin", stand_in_with_nul()},
            {"files", {{"f\xEF\xBF\xBD", stand_in_with_nul()}}},
            {"raw",
             {{"argv", {{"4", "Yf8="}}},
              {"env", {{"V", "Yf8="}}},
              {"stdin", "Yf8AYg=="},
              {"files", {{"f\xEF\xBF\xBD", "Yf8AYg=="}}},
              {"file_names", {{"f\xEF\xBF\xBD", "Zv4="}}}}}};
}

class LocalExecutorRaw : public LocalExecutorTest {};

TEST_F(LocalExecutorRaw, TheTargetGetsTheRawBytesEverywhere) {
    const json result = run(hex_dump_spec());
    ASSERT_EQ(result["status"], "OK") << result.dump();
    // stdin and the file's content with their NUL, argv and env as given; the file's name
    // is its raw name (the glob f* finds it).
    EXPECT_EQ(result["stdout"], "61ff0062\n61ff0062\n61ff\n61ff") << result.dump();
}

TEST_F(LocalExecutorRaw, AnEntryWhoseStandInIsNoLongerTheFieldIsLeftOut) {
    json spec = hex_dump_spec();
    spec["argv"][4] = "changed";  // as an injector could have rewritten it
    spec["env"]["V"] = "a";
    const json result = run(spec);
    ASSERT_EQ(result["status"], "OK") << result.dump();
    EXPECT_EQ(result["stdout"], "61ff0062\n61ff0062\n6368616e676564\n61") << result.dump();
}

TEST_F(LocalExecutorRaw, MalformedEntriesAreInvalid) {
    for (const json &raw : {json{{"argv", {{"4", "Yf8"}}}}, json{{"argv", {{"9", "Yf8="}}}},
                            json{{"argv", {{"x", "Yf8="}}}}, json{{"argv", "Yf8="}},
                            json{{"env", {{"V", 1}}}}, json("Yf8=")}) {
        json spec = hex_dump_spec();
        spec["raw"] = raw;
        EXPECT_EQ(run_status(spec), SBX_INVALID) << raw.dump();
    }
}

}  // namespace
}  // namespace sbx::executors_test
