// Shared fixture of the network injector tests: the real network.so and local.so, loaded
// through the host's plugin loader; a probe program run by the executor inside the
// namespace the injector prepared reports what the network does there.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "command.hpp"
#include "plugins/plugin.hpp"

namespace sbx::injectors_test {

using nlohmann::json;

inline std::shared_ptr<plugins::Plugin> network_plugin() {
    static const auto plugin = plugins::load_plugin(SBX_NETWORK_INJECTOR_PATH);
    return plugin;
}
inline std::shared_ptr<plugins::Plugin> local_plugin() {
    static const auto plugin = plugins::load_plugin(SBX_LOCAL_EXECUTOR_PATH);
    return plugin;
}
inline std::string probe() {
    return SBX_NET_PROBE_PATH;
}

inline bool namespace_exists(const std::string &name) {
    return std::filesystem::exists("/run/netns/" + name);
}
inline bool link_exists(const std::string &name) {
    return std::filesystem::exists("/sys/class/net/" + name);
}

// The test fails, loudly, when the machine cannot run it: no silent skips.
inline void require_network_tools() {
    for (const char *tool : {"ip", "tc", "iptables-restore", "ip6tables-restore"}) {
        bool found = false;
        for (const char *folder : {"/usr/sbin", "/sbin", "/usr/bin", "/bin"}) {
            found = found || ::access((std::string(folder) + "/" + tool).c_str(), X_OK) == 0;
        }
        ASSERT_TRUE(found) << "'" << tool
                           << "' is missing: install iproute2 and iptables (tools/install-deps)";
    }
}

// A prepared run: torn down when it goes out of scope, as the host's InjectionScope does.
class PreparedRun {
  public:
    PreparedRun(plugins::Instance &injector, const json &request)
        : injector_(&injector), response_(json::parse(injector.prepare(request.dump()))) {}
    ~PreparedRun() { teardown(); }
    PreparedRun(const PreparedRun &) = delete;
    PreparedRun &operator=(const PreparedRun &) = delete;

    [[nodiscard]] const json &response() const { return response_; }
    [[nodiscard]] const json &network() const { return response_.at("network"); }
    [[nodiscard]] json spec() const { return response_.value("spec", json::object()); }
    void teardown() {
        if (injector_ != nullptr) {
            injector_->teardown(response_.value("state", json()).dump());
            injector_ = nullptr;
        }
    }

  private:
    plugins::Instance *injector_;
    json response_;
};

class NetworkTest : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_NO_FATAL_FAILURE(require_network_tools());
        state_dir_ = test::make_temp_dir("sbx-net-state-");
    }
    void TearDown() override {
        std::error_code ec;
        std::filesystem::remove_all(state_dir_, ec);
    }

    static std::unique_ptr<plugins::Instance> injector(const json &config = json::object()) {
        return network_plugin()->create(config);
    }

    // The prepare request the host would send for a step running `argv` under `preset`.
    [[nodiscard]] json request(const json &preset, const std::vector<std::string> &argv) const {
        return {{"preset", preset},
                {"spec", {{"run_id", "test-1"}, {"argv", argv}, {"env", json::object()}}},
                {"run_id", "test-1"},
                {"state_dir", state_dir_}};
    }

    // Runs `spec` through a fresh local executor; the probe's JSON output, or a test failure.
    static json run_probe(const json &spec) {
        const json result = json::parse(local_plugin()->create(json::object())->run(spec.dump()));
        EXPECT_EQ(result.value("status", ""), "OK") << result.dump();
        try {
            return json::parse(result.value("stdout", "{}"));
        } catch (const json::exception &) {
            ADD_FAILURE() << "the probe printed no JSON: " << result.dump();
            return json::object();
        }
    }

    // The probe run in the host's own network, without the injector.
    static json run_plain(const std::vector<std::string> &argv) {
        return run_probe({{"run_id", "plain"}, {"argv", argv}});
    }

    std::string state_dir_;
};

// What only root gets: named namespaces (/run/netns, `ip netns list`), their uplinks and
// their sweep records. A normal user's namespaces are the `user` kind (network_user tests).
class NamedNetworkTest : public NetworkTest {
  protected:
    void SetUp() override {
        ASSERT_EQ(::geteuid(), 0U) << "named network namespaces and uplinks need root; the "
                                      "unprivileged leg runs NetworkTest.* only";
        NetworkTest::SetUp();
    }
};

}  // namespace sbx::injectors_test
