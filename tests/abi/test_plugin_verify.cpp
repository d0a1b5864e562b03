// `plugins verify` as a pre-flight: a good plugin gets a checklist and exit 0; each bad
// fixture gets exactly one line on stderr, naming the file and what to change, and exit 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <ostream>
#include <string>

#include "command.hpp"
#include "sbx/plugin.h"

namespace {

using sbx::test::run_command;

std::string preflight(const std::string &id) {
    return std::string(SBX_PREFLIGHT_DIR) + "/" + id + ".so";
}

TEST(VerifyPreflight, AGoodPluginGetsTheWholeChecklist) {
    const auto result =
        run_command({SBX_BINARY, "plugins", "verify", std::string(SBX_FIXTURE_DIR) + "/good.so"});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err, "");
    // The fixture is built with this SDK: its ABI is the host's.
    const std::string abi = std::to_string(SBX_ABI_MAJOR) + "." + std::to_string(SBX_ABI_MINOR);
    const std::string summary = "ok: good 0.1.0 (predictor, ABI " + abi + ")\n";
    const std::string descriptor =
        "  ok  descriptor        good 0.1.0, predictor, ABI " + abi + " (this host: " + abi + ")\n";
    for (const std::string &line :
         {summary, descriptor, std::string("  ok  exports           sbx_entry only\n"),
          std::string("  ok  undefined symbols "),
          std::string("  ok  symbol versions   needs libc.so.6 GLIBC_2."),
          std::string("  ok  config schema     a usable JSON Schema; {} is accepted\n"),
          std::string("  ok  smoke call        predict (the sample, 3 fuzzed) -> "
                      "{\"value\":0.5,\"method\":\"fixture\"}\n")}) {
        EXPECT_NE(result.out.find(line), std::string::npos) << line << " in:\n" << result.out;
    }
}

struct Problem {
    std::string id;
    std::string expected;  // the whole line after "<path>: ", or its start when it ends in '*'
};

// Names the case in ctest's list instead of dumping the struct's bytes.
void PrintTo(const Problem &problem, std::ostream *out) {
    *out << problem.id;
}

class VerifyPreflightRefuses : public ::testing::TestWithParam<Problem> {};

TEST_P(VerifyPreflightRefuses, WithOneExactLineAndExitCode2) {
    const auto &[id, expected] = GetParam();
    const std::string file = preflight(id);
    const auto result = run_command({SBX_BINARY, "plugins", "verify", file});
    EXPECT_EQ(result.exit_code, 2) << result.err;
    ASSERT_FALSE(result.err.empty());
    EXPECT_EQ(result.err.find('\n'), result.err.size() - 1) << "one line:\n" << result.err;
    const std::string line = result.err.substr(0, result.err.size() - 1);
    if (expected.back() == '*') {
        const std::string start = file + ": " + expected.substr(0, expected.size() - 1);
        EXPECT_EQ(line.substr(0, start.size()), start) << line;
    } else {
        EXPECT_EQ(line, file + ": " + expected);
    }
}

INSTANTIATE_TEST_SUITE_P(
    EachPreflightFixture, VerifyPreflightRefuses,
    ::testing::Values(
        Problem{"undefined_symbol",
                "uses the symbol 'sbx_host_internal_flush', which neither the host nor the "
                "plugin's libraries define; define it in the plugin or link the library that "
                "has it (plugins reach the host only through sbx_host; link with -Wl,-z,defs "
                "to catch this at build time)"},
        // The machine's libc path and newest version vary; the rest is exact.
        Problem{"future_glibc", "needs GLIBC_99 of libc.so.6, but this machine's libc.so.6 (*"},
        Problem{"missing_library",
                "needs the library libsbx_absent.so, which this machine cannot load "
                "(libsbx_absent.so: cannot open shared object file: No such file or "
                "directory); install the package that provides it, or link it statically into "
                "the plugin"},
        Problem{"extra_export",
                "exports 1 symbol besides sbx_entry (first: fixture_helper_exported); compile "
                "with -fvisibility=hidden and link with the SDK's version script sbx_plugin.map "
                "(sbx_add_plugin and `pkg-config --libs sandbox-runner-sdk` do both)"},
        Problem{"smoke_fails",
                "smoke call predict {\"metric\":\"roi\",\"range\":[0,1],\"series\":[0.5,0.62,0.7,"
                "0.66,0.74],\"subject\":\"roi:checkout:flaky_upstre... failed: plugin "
                "'smoke_fails' sbx.predictor/1 failed: fixture: no model for "
                "this series; make predict answer this request with SBX_OK (a request it "
                "cannot serve is still an answer, e.g. an inactive injector or an executor's "
                "\"XX\")"}),
    [](const auto &test) { return test.param.id; });

TEST(VerifyPreflight, TheNewerGlibcLineSaysWhatThisMachineHasAndWhatToDo) {
    const auto result = run_command({SBX_BINARY, "plugins", "verify", preflight("future_glibc")});
    EXPECT_NE(result.err.find(") has at most GLIBC_2."), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("; build the plugin on a system no newer than this one (e.g. in a "
                              "Debian 12 container) or with an older toolchain\n"),
              std::string::npos)
        << result.err;
}

// Every built-in plugin, and the toolchain and ABI variants, pass the whole pre-flight.
TEST(VerifyPreflight, EveryBuiltInPluginAndVariantPasses) {
    std::vector<std::string> files;
    for (const auto &entry :
         std::filesystem::recursive_directory_iterator(SBX_BUILT_IN_PLUGIN_DIR)) {
        if (entry.path().extension() == ".so") {
            files.push_back(entry.path().string());
        }
    }
    for (const char *id : {"frozen_v1_0", "no_exceptions", "no_exceptions_hpp"}) {
        files.push_back(std::string(SBX_EVOLUTION_DIR) + "/" + id + ".so");
    }
    ASSERT_GE(files.size(), 10u);
    for (const auto &file : files) {
        const auto result = run_command({SBX_BINARY, "plugins", "verify", file});
        EXPECT_EQ(result.exit_code, 0) << file << ":\n" << result.err;
        EXPECT_NE(result.out.find("  ok  smoke call "), std::string::npos) << result.out;
    }
}

}  // namespace
