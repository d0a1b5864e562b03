// The plugin-author path of docs/plugin-authors.md, for real: compile the example with
// only the SDK headers, drop the .so into a directory, and the host lists and uses it.
#include <gtest/gtest.h>
#include <sbx/plugin.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "command.hpp"

namespace {

using sbx::test::run_command;

// The linker flag that keeps every symbol but the entry hidden (one literal: the macro is a
// string literal too).
constexpr const char *kVersionScript =
    "-Wl,--version-script=" SBX_SDK_INCLUDE "/../cmake/sbx_plugin.map";

TEST(ThirdPartyPlugin, BuildsWithOnlyTheSdkAndIsLoadedFromADroppedInDirectory) {
    const std::string dir = sbx::test::make_temp_dir("sbx-third-party-");
    const std::string so = dir + "/last_value.so";
    const auto build = run_command(
        {SBX_CXX, "-std=c++17", "-shared", "-fPIC", "-fvisibility=hidden", "-Wall", "-Werror", "-I",
         SBX_SDK_INCLUDE, kVersionScript, "-Wl,-z,defs", SBX_EXAMPLE, "-o", so});
    ASSERT_EQ(build.exit_code, 0) << build.err;

    // Exactly one exported symbol: the entry.
    const auto exports = run_command({"/usr/bin/nm", "-D", "--defined-only", so});
    ASSERT_EQ(exports.exit_code, 0) << exports.err;
    EXPECT_NE(exports.out.find(" sbx_entry\n"), std::string::npos) << exports.out;
    EXPECT_EQ(std::count(exports.out.begin(), exports.out.end(), '\n'), 1) << exports.out;

    const auto verify = run_command({SBX_BINARY, "plugins", "verify", so});
    EXPECT_EQ(verify.exit_code, 0) << verify.err;
    const std::string abi =
        "ABI " + std::to_string(SBX_ABI_MAJOR) + "." + std::to_string(SBX_ABI_MINOR);
    EXPECT_NE(verify.out.find("ok: last_value 1.0.0 (predictor, " + abi + ")"), std::string::npos)
        << verify.out;

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
                     kVersionScript, "-Wl,-z,defs", SBX_EXAMPLE, "-o", so});
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

// Drop-in means drop-in: the C example collector declares itself active by default, so
// copying its .so into the user's plugin directory makes run-scenarios collect with it under
// the embedded settings, which do not name it; `plugins list` says so, and `-step_count` in a
// user file that extends the defaults leaves it out again.
TEST(ThirdPartyPlugin, ADropInCollectorActiveByDefaultIsUsedWithTheEmbeddedSettings) {
    const std::string dir = sbx::test::make_temp_dir("sbx-drop-in-");
    const std::string user_plugins = dir + "/xdg/sandbox-runner/plugins";
    std::filesystem::create_directories(user_plugins);
    const auto build =
        run_command({SBX_CC, "-std=c11", "-shared", "-fPIC", "-fvisibility=hidden", "-Wall",
                     "-Werror", "-I", SBX_SDK_INCLUDE, kVersionScript, "-Wl,-z,defs",
                     SBX_STEP_COUNT_EXAMPLE, "-o", user_plugins + "/step_count.so"});
    ASSERT_EQ(build.exit_code, 0) << build.err;
    // The embedded settings run build/bin/sbx-demo-kv and search build/plugins, relative to
    // the working directory: a `build` link to this build tree stands for the checkout.
    const std::filesystem::path build_tree =
        std::filesystem::path(SBX_BINARY).parent_path().parent_path();
    std::filesystem::create_directory_symlink(build_tree, dir + "/build");
    const std::map<std::string, std::string> env = {{"XDG_DATA_HOME", dir + "/xdg"},
                                                    {"SANDBOX_DATA_DIR", dir + "/data"}};

    const auto list = run_command({SBX_BINARY, "plugins", "list", "--json"}, env, dir);
    ASSERT_EQ(list.exit_code, 0) << list.err;
    std::map<std::string, std::string> use;
    const auto listed = nlohmann::json::parse(list.out);
    for (const auto &plugin : listed["plugins"]) {
        use[plugin["id"].get<std::string>()] = plugin["use"].get<std::string>();
    }
    EXPECT_EQ(use["step_count"], "default") << list.out;
    EXPECT_EQ(use["process_metrics"], "listed") << list.out;
    EXPECT_EQ(use["signature"], "-") << list.out;

    const auto run = run_command(
        {SBX_BINARY, "run-scenarios", "demo-kv", "--repetitions", "1", "--json"}, env, dir);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.err.find("using metrics step_count from " + user_plugins +
                           "/step_count.so: it is active by default"),
              std::string::npos)
        << run.err;
    // Every cell has the collector's numbers; under `normal` (no concurrent copies, whose
    // statuses the example's plain scan counts too) the demo's two steps ran.
    const auto cells = run_command(
        {"/usr/bin/sqlite3", dir + "/data/metrics.db",
         "SELECT p.name, c.flag, m.value FROM metrics m JOIN cells c ON c.id = m.cell_id JOIN "
         "presets p ON p.id = c.preset_id WHERE m.name = 'steps_run' ORDER BY p.name, c.flag"});
    EXPECT_EQ(std::count(cells.out.begin(), cells.out.end(), '\n'), 10) << cells.out;
    EXPECT_NE(cells.out.find("normal|off|2.0\nnormal|on|2.0\n"), std::string::npos) << cells.out;

    std::ofstream(dir + "/without.yaml") << "extends: default\nmetrics: [-step_count]\n";
    const auto left_out = run_command(
        {SBX_BINARY, "--config", dir + "/without.yaml", "plugins", "list", "--json"}, env, dir);
    ASSERT_EQ(left_out.exit_code, 0) << left_out.err;
    const auto listed_again = nlohmann::json::parse(left_out.out);
    std::string step_count_use = "not listed";
    for (const auto &plugin : listed_again["plugins"]) {
        if (plugin["id"] == "step_count") {
            step_count_use = plugin["use"].get<std::string>();
        }
    }
    EXPECT_EQ(step_count_use, "left out") << left_out.out;
    std::ofstream(dir + "/typo.yaml") << "extends: default\nmetrics: [-step_cuont]\n";
    const auto typo = run_command(
        {SBX_BINARY, "--config", dir + "/typo.yaml", "run-scenarios", "demo-kv"}, env, dir);
    EXPECT_EQ(typo.exit_code, 2);
    EXPECT_NE(typo.err.find(dir + "/typo.yaml:2:11: -step_cuont leaves out no plugin"),
              std::string::npos)
        << typo.err;
    std::filesystem::remove_all(dir);
}

}  // namespace
