// Shared fixture of the local executor tests: loads the real local.so through the host's
// plugin loader, runs specs through it, and inspects /proc for processes a run left behind.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "plugins/plugin.hpp"
#include "processes.hpp"

namespace sbx::executors_test {

using nlohmann::json;

// Paths from the build (tests/executors/CMakeLists.txt).
inline const char *local_executor_path() {
    return SBX_LOCAL_EXECUTOR_PATH;
}
inline std::string helper() {
    return SBX_TEST_TARGET_PATH;
}

// helper() as a shell word: the build may live on a path with a space.
inline std::string shell_helper() {
    return std::string("'") + SBX_TEST_TARGET_PATH + "'";
}
// The helper's folder, for a spec's `show`: a script that names the helper only in its text
// (`sh -c "'HELPER' ..."`) must be shown it, or a checkout under /tmp (hidden by the run's
// private /tmp) makes the script fail with "not found".
inline std::string helper_folder() {
    return std::filesystem::path(SBX_TEST_TARGET_PATH).parent_path().string();
}

inline std::shared_ptr<plugins::Plugin> local_plugin() {
    static const std::shared_ptr<plugins::Plugin> plugin =
        plugins::load_plugin(local_executor_path());
    return plugin;
}

class LocalExecutorTest : public ::testing::Test {
  protected:
    // Runs `spec` through a fresh instance made from `config`; returns the parsed result.
    static json run(const json &spec, const json &config = json::object()) {
        const std::unique_ptr<plugins::Instance> instance = local_plugin()->create(config);
        return json::parse(instance->run(spec.dump()));
    }

    // Same, also measuring the wall time of the whole call in seconds.
    static json run_timed(const json &spec, double &seconds, const json &config = json::object()) {
        const auto start = std::chrono::steady_clock::now();
        json result = run(spec, config);
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return result;
    }
};

// The SBX_* status a run call failed with; SBX_OK when it did not throw.
inline sbx_status run_status(const json &spec, const json &config = json::object()) {
    try {
        (void)local_plugin()->create(config)->run(spec.dump());
        return SBX_OK;
    } catch (const plugins::PluginCallError &e) {
        return e.status();
    }
}

inline bool process_exists(long pid) {
    return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH ||
           std::filesystem::exists("/proc/" + std::to_string(pid));
}

// Host PIDs of live processes whose command line contains `token`.
inline std::vector<long> processes_with(const std::string &token) {
    const std::vector<pid_t> pids = sbx::test::processes_whose_cmdline_contains(token);
    return {pids.begin(), pids.end()};
}

// A value from /proc/self/status in kB ("VmHWM", "VmRSS").
inline long self_status_kb(const std::string &key) {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind(key + ":", 0) == 0) {
            return std::stol(line.substr(key.size() + 1));
        }
    }
    return -1;
}

inline std::string unique_token(const char *what) {
    return std::string("sbx-test-") + what + "-" + std::to_string(::getpid()) + "-" +
           std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
}

inline bool contains(const json &array, const char *item) {
    for (const auto &element : array) {
        if (element == item) {
            return true;
        }
    }
    return false;
}

}  // namespace sbx::executors_test
