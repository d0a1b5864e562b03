// Shared fixture of the resource injector tests (timeout, disk_corruption, broken_auth,
// concurrency_spike): the real plugins and the real local executor, loaded through the
// host's plugin loader, and a run helper that pairs prepare, the executor's run and
// teardown as the host's InjectionScope does.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "command.hpp"
#include "plugins/plugin.hpp"

namespace sbx::injectors_test {

using nlohmann::json;

inline std::shared_ptr<plugins::Plugin> load_once(const char *path) {
    return plugins::load_plugin(path);
}
inline std::shared_ptr<plugins::Plugin> timeout_plugin() {
    static const auto plugin = load_once(SBX_TIMEOUT_INJECTOR_PATH);
    return plugin;
}
inline std::shared_ptr<plugins::Plugin> disk_corruption_plugin() {
    static const auto plugin = load_once(SBX_DISK_CORRUPTION_INJECTOR_PATH);
    return plugin;
}
inline std::shared_ptr<plugins::Plugin> broken_auth_plugin() {
    static const auto plugin = load_once(SBX_BROKEN_AUTH_INJECTOR_PATH);
    return plugin;
}
inline std::shared_ptr<plugins::Plugin> concurrency_spike_plugin() {
    static const auto plugin = load_once(SBX_CONCURRENCY_SPIKE_INJECTOR_PATH);
    return plugin;
}
inline std::shared_ptr<plugins::Plugin> executor_plugin() {
    static const auto plugin = load_once(SBX_LOCAL_EXECUTOR_PATH);
    return plugin;
}
inline std::string target() {
    return SBX_TEST_TARGET_PATH;
}

inline std::string read_file(const std::filesystem::path &path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_file(const std::filesystem::path &path, const std::string &content) {
    std::ofstream(path, std::ios::binary) << content;
}

// What one injected run gave: the injector's prepare response and the executor's result.
struct InjectedRun {
    json response;
    json result;
    json tally;  // the injector's tally after the run, before teardown
    [[nodiscard]] json spec() const { return response.value("spec", json()); }
};

class ResourceInjectorTest : public ::testing::Test {
  protected:
    void SetUp() override {
        state_dir_ = test::make_temp_dir("sbx-res-state-");
        workspace_ = test::make_temp_dir("sbx-res-ws-");
    }
    void TearDown() override {
        std::error_code ignored;
        std::filesystem::remove_all(state_dir_, ignored);
        std::filesystem::remove_all(workspace_, ignored);
    }

    // The prepare request the host sends for `spec` under `preset`.
    [[nodiscard]] json request(const json &preset, json spec) const {
        if (!spec.contains("run_id")) {
            spec["run_id"] = "4242-7";
        }
        return {{"preset", preset},
                {"spec", spec},
                {"run_id", spec["run_id"]},
                {"state_dir", state_dir_}};
    }

    // prepare -> run the (possibly changed) spec through local.so -> teardown.
    InjectedRun run_injected(plugins::Instance &injector, const json &preset, const json &spec,
                             const json &executor_config = json::object()) const {
        InjectedRun run;
        run.response = json::parse(injector.prepare(request(preset, spec).dump()));
        const json used = run.response.contains("spec") ? run.response["spec"] : spec;
        try {
            run.result = json::parse(executor_plugin()->create(executor_config)->run(used.dump()));
        } catch (...) {
            injector.teardown(run.response.value("state", json()).dump());
            throw;
        }
        if (run.response.value("active", false)) {
            run.tally = json::parse(injector.tally(run.response.value("state", json()).dump()));
        }
        injector.teardown(run.response.value("state", json()).dump());
        return run;
    }

    std::string state_dir_;
    std::string workspace_;
};

}  // namespace sbx::injectors_test
