// The loader against real .so files: `plugins verify` refuses each bad kind of file with
// exit 2 and a one-line reason; a plugin that throws everywhere cannot take the host down.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "command.hpp"
#include "plugins/plugin.hpp"
#include "plugins/registry.hpp"

namespace {

using sbx::test::run_command;

std::string fixture(const std::string &id) {
    return std::string(SBX_FIXTURE_DIR) + "/" + id + ".so";
}

// "ABI 1.3" for this host's version, or a minor `ahead` of it: what messages say.
std::string abi_text(int major, int ahead = 0) {
    return "ABI " + std::to_string(major) + "." + std::to_string(SBX_ABI_MINOR + ahead);
}

struct Refusal {
    std::string file;
    std::string expected;  // a substring of the one-line reason
};

class VerifyRefuses : public ::testing::TestWithParam<Refusal> {};

TEST_P(VerifyRefuses, WithExitCode2AndReason) {
    const auto &[file, expected] = GetParam();
    const auto result = run_command({SBX_BINARY, "plugins", "verify", file});
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_NE(result.err.find(expected), std::string::npos) << result.err;
    EXPECT_NE(result.err.find(file), std::string::npos) << "names the file: " << result.err;
    // One line: the reason, then the newline.
    EXPECT_EQ(result.err.find('\n'), result.err.size() - 1) << result.err;
}

INSTANTIATE_TEST_SUITE_P(
    EveryKindOfBadFile, VerifyRefuses,
    ::testing::Values(
        Refusal{SBX_NOT_A_PLUGIN, "is not an ELF file"},
        Refusal{"/bin/true", "has no entry symbol 'sbx_entry'"},
        Refusal{fixture("no_entry"), "has no entry symbol 'sbx_entry'"},
        Refusal{fixture("abi_major_mismatch"),
                "built for plugin " + abi_text(2) + " but this host speaks " + abi_text(1)},
        Refusal{fixture("abi_newer_minor"),
                "needs plugin " + abi_text(1, 1) + ", newer than this host's " + abi_text(1)},
        Refusal{fixture("no_description"), "missing the mandatory field 'description'"},
        Refusal{fixture("init_fails"), "init() failed: fixture refuses to start"}));

TEST(Verify, AcceptsAGoodPlugin) {
    const auto result = run_command({SBX_BINARY, "plugins", "verify", fixture("good")});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("ok: good 0.1.0 (predictor, " + abi_text(1) + ")"), std::string::npos)
        << result.out;
}

TEST(Registry, RefusesTheSecondPluginWithTheSameIdNamingBothFiles) {
    sbx::plugins::Registry registry({}, {});  // no own directory: both are described isolated
    registry.scan({SBX_TWINS_DIR});
    ASSERT_EQ(registry.plugins().size(), 1u);
    ASSERT_EQ(registry.refused().size(), 1u);
    const auto &reason = registry.refused()[0].reason;
    EXPECT_NE(reason.find("twin"), std::string::npos) << reason;
    EXPECT_NE(reason.find("a/twin_a.so"), std::string::npos) << reason;
    EXPECT_NE(registry.refused()[0].path.string().find("b/twin_b.so"), std::string::npos);
}

TEST(Registry, ListShowsRefusalsAsJson) {
    const auto result =
        run_command({SBX_BINARY, "--plugin-dir", SBX_TWINS_DIR, "plugins", "list", "--json"});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    const auto listed = nlohmann::json::parse(result.out);
    ASSERT_EQ(listed["refused"].size(), 1u);
    EXPECT_NE(listed["refused"][0]["reason"].get<std::string>().find("already provided by"),
              std::string::npos);
}

TEST(ThrowingPlugin, EveryExceptionBecomesAnErrorAndTheHostSurvives) {
    const auto plugin = sbx::plugins::load_plugin(fixture("thrower"));
    try {
        (void)plugin->create({{"fail_create", true}});
        FAIL() << "create() should have failed";
    } catch (const sbx::plugins::PluginError &e) {
        EXPECT_NE(std::string(e.what()).find("create exploded"), std::string::npos) << e.what();
    }
    auto instance = plugin->create(nlohmann::json::object());
    for (int attempt = 0; attempt < 3; ++attempt) {
        try {
            (void)instance->run("{}");
            FAIL() << "run() should have failed";
        } catch (const sbx::plugins::PluginCallError &e) {
            EXPECT_EQ(e.status(), SBX_ERROR);
            EXPECT_NE(std::string(e.what()).find("run exploded"), std::string::npos);
        }
    }
    // A kind interface the plugin lacks is refused by the host, not crashed into.
    EXPECT_THROW((void)instance->predict("{}"), sbx::plugins::PluginCallError);
}

TEST(ConfigSchema, ViolationsNameThePluginKeyAndLocation) {
    const auto plugin = sbx::plugins::load_plugin(SBX_EMA_PLUGIN);
    try {
        (void)plugin->create({{"alpha", "high"}}, [](const std::string &pointer) {
            return pointer == "/alpha" ? "s.yaml:7:12" : "";
        });
        FAIL() << "a string alpha must be refused";
    } catch (const sbx::InputError &e) {
        const std::string message = e.what();
        EXPECT_EQ(message.rfind("s.yaml:7:12: plugins.ema/alpha:", 0), 0u) << message;
    }
    EXPECT_NO_THROW((void)plugin->create({{"alpha", 0.5}}));
    EXPECT_THROW((void)plugin->create({{"alpha", "high"}}), sbx::InputError)
        << "no caller can skip the schema check";
}

TEST(Predictor, AnswersThroughTheAbi) {
    const auto plugin = sbx::plugins::load_plugin(fixture("good"));
    auto instance = plugin->create(nlohmann::json::object());
    const auto answer = nlohmann::json::parse(instance->predict(R"({"series":[1,2]})"));
    EXPECT_DOUBLE_EQ(answer["value"].get<double>(), 0.5);
}

}  // namespace

namespace {

// Hostile plugin files: damaged copies of a real plugin must be refused with exit 2,
// never crash the host.
TEST(DamagedPluginFiles, AreRefusedWithoutCrashing) {
    const std::string dir = sbx::test::make_temp_dir("sbx-damaged-");
    std::ifstream in(fixture("good"), std::ios::binary);
    const std::string original((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
    ASSERT_GT(original.size(), 4096u);
    const auto write = [&](const std::string &name, const std::string &bytes) {
        std::ofstream(dir + "/" + name, std::ios::binary) << bytes;
        return dir + "/" + name;
    };
    std::vector<std::string> damaged;
    damaged.push_back(write("truncated.so", original.substr(0, 4096)));
    damaged.push_back(write("header_only.so", original.substr(0, 64)));
    std::string far_sections = original;
    for (int i = 0; i < 8; ++i) {
        far_sections[0x28 + i] = '\x7f';  // e_shoff far past the end
    }
    damaged.push_back(write("far_sections.so", far_sections));
    std::string garbage_tail = original.substr(0, 64);
    for (int i = 0; i < 4096; ++i) {
        garbage_tail.push_back(static_cast<char>((i * 131) & 0xff));
    }
    damaged.push_back(write("garbage_tail.so", garbage_tail));
    for (const auto &file : damaged) {
        const auto result = run_command({SBX_BINARY, "plugins", "verify", file});
        EXPECT_EQ(result.exit_code, 2) << file << ": " << result.err;
        EXPECT_NE(result.err.find(file), std::string::npos) << result.err;
    }
    // A section count far too large is read within bounds: the loader reaches .dynsym
    // before the count runs past the file, and the dynamic loader ignores section headers.
    std::string many_sections = original;
    many_sections[0x3c] = '\xff';  // e_shnum = 65535
    many_sections[0x3d] = '\xff';
    const auto odd = run_command({SBX_BINARY, "plugins", "verify", write("odd.so", many_sections)});
    EXPECT_TRUE(odd.exit_code == 0 || odd.exit_code == 2) << "crashed: " << odd.exit_code;
    std::filesystem::remove(dir + "/odd.so");
    // A directory full of them does not stop the host from loading good plugins.
    const auto list = run_command({SBX_BINARY, "--plugin-dir", dir, "plugins", "list", "--json"});
    EXPECT_EQ(list.exit_code, 0) << list.err;
    EXPECT_EQ(nlohmann::json::parse(list.out)["refused"].size(), damaged.size());
    std::filesystem::remove_all(dir);
}

}  // namespace

namespace {

// Built-in plugins are built like third-party ones: one exported symbol each.
TEST(BuiltInPlugins, ExportExactlyTheEntrySymbol) {
    int checked = 0;
    for (const auto &entry :
         std::filesystem::recursive_directory_iterator(SBX_BUILT_IN_PLUGIN_DIR)) {
        if (entry.path().extension() != ".so") {
            continue;
        }
        const auto exports =
            run_command({"/usr/bin/nm", "-D", "--defined-only", entry.path().string()});
        ASSERT_EQ(exports.exit_code, 0) << exports.err;
        EXPECT_EQ(exports.out.substr(exports.out.find(' ', exports.out.find(' ') + 1) + 1),
                  "sbx_entry\n")
            << entry.path() << " exports:\n"
            << exports.out;
        ++checked;
    }
    EXPECT_GE(checked, 5);
}

}  // namespace
