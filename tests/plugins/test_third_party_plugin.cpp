// The plugin-author path of docs/plugin-authors.md, for real: compile the example with
// only the SDK headers, drop the .so into a directory, and the host lists and uses it.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "command.hpp"

namespace {

using sbx::test::run_command;

TEST(ThirdPartyPlugin, BuildsWithOnlyTheSdkAndIsLoadedFromADroppedInDirectory) {
    const std::string dir = sbx::test::make_temp_dir("sbx-third-party-");
    const std::string so = dir + "/last_value.so";
    const auto build = run_command(
        {SBX_CXX, "-std=c++17", "-shared", "-fPIC", "-fvisibility=hidden", "-Wall", "-Werror", "-I",
         SBX_SDK_INCLUDE, "-Wl,--version-script=" SBX_SDK_INCLUDE "/../cmake/sbx_plugin.map",
         "-Wl,-z,defs", SBX_EXAMPLE, "-o", so});
    ASSERT_EQ(build.exit_code, 0) << build.err;

    // Exactly one exported symbol: the entry.
    const auto exports = run_command({"/usr/bin/nm", "-D", "--defined-only", so});
    ASSERT_EQ(exports.exit_code, 0) << exports.err;
    EXPECT_NE(exports.out.find(" sbx_entry\n"), std::string::npos) << exports.out;
    EXPECT_EQ(std::count(exports.out.begin(), exports.out.end(), '\n'), 1) << exports.out;

    const auto verify = run_command({SBX_BINARY, "plugins", "verify", so});
    EXPECT_EQ(verify.exit_code, 0) << verify.err;
    EXPECT_NE(verify.out.find("ok: last_value 1.0.0 (predictor, ABI 1.1)"), std::string::npos);

    const auto list = run_command({SBX_BINARY, "--plugin-dir", dir, "plugins", "list", "--json"});
    ASSERT_EQ(list.exit_code, 0) << list.err;
    bool found = false;
    const auto listed = nlohmann::json::parse(list.out);
    for (const auto &plugin : listed["plugins"]) {
        found = found || (plugin["id"] == "last_value" && plugin["path"] == so);
    }
    EXPECT_TRUE(found) << list.out;

    const auto inspect =
        run_command({SBX_BINARY, "--plugin-dir", dir, "plugins", "inspect", "last_value"});
    EXPECT_EQ(inspect.exit_code, 0) << inspect.err;
    EXPECT_EQ(nlohmann::json::parse(inspect.out)["vendor"], "Example Corp");
    std::filesystem::remove_all(dir);
}

// The other C++ world: a plugin compiled by clang against libc++ (std::__1) runs inside
// the g++/libstdc++ host, because nothing but C types crosses the boundary.
TEST(ThirdPartyPlugin, BuiltWithClangAndLibcxxWorksInTheHost) {
    const std::string dir = sbx::test::make_temp_dir("sbx-libcxx-");
    const std::string so = dir + "/last_value.so";
    const auto build =
        run_command({"/usr/bin/clang++", "-std=c++17", "-stdlib=libc++", "-shared", "-fPIC",
                     "-fvisibility=hidden", "-Wall", "-Werror", "-I", SBX_SDK_INCLUDE,
                     "-Wl,--version-script=" SBX_SDK_INCLUDE "/../cmake/sbx_plugin.map",
                     "-Wl,-z,defs", SBX_EXAMPLE, "-o", so});
    ASSERT_EQ(build.exit_code, 0) << "clang++ with libc++ (packages clang, libc++-dev, "
                                     "libc++abi-dev) must build the example:\n"
                                  << build.err;
    const auto linked = run_command({"/usr/bin/ldd", so});
    EXPECT_NE(linked.out.find("libc++.so"), std::string::npos) << linked.out;

    // Used for real: the host forecasts with it after a run.
    std::ofstream(dir + "/settings.yaml")
        << "predictor: last_value\npresets: [{SCENARIO_NAME: n}]\nworkflows:\n  - name: t\n"
           "    steps:\n      - run: [/bin/true]\n";
    const auto result = run_command({SBX_BINARY, "--config", dir + "/settings.yaml", "--plugin-dir",
                                     dir, "--data-dir", dir + "/data", "run", "--json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto report = nlohmann::json::parse(result.out);
    EXPECT_EQ(report["cells"][0]["forecast"]["method"], "last_value") << result.out;
    EXPECT_DOUBLE_EQ(report["cells"][0]["forecast"]["value"].get<double>(), 1.0);
    std::filesystem::remove_all(dir);
}

}  // namespace
