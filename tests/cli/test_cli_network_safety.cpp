// safe_mode and network_mocks end to end: the real binary and plugins run a bash target that
// connects to a TCP listener this test opens on the host (loopback and, where the machine
// has one, a non-loopback address). Without safe_mode it gets through; with it the connect
// fails as on a machine without network, and the listener never sees it — as root and as
// an unprivileged user. A network mock answers its canned body inside a safe_mode run; bad
// YAML and an executor that cannot keep a run off the network stop with exit 2.
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sbx/unique_fd.hpp>
#include <string>

#include "cli_fixture.hpp"

namespace {

using nlohmann::json;

// A listening TCP socket on every address of the host, on a port the kernel chose.
// Connections that complete wait in its backlog, so after a run they can be counted.
class HostListener {
  public:
    HostListener() : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0)) {
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_ANY);
        socklen_t size = sizeof address;
        const bool ok =
            fd_ && ::bind(fd_.get(), reinterpret_cast<sockaddr *>(&address), size) == 0 &&
            ::listen(fd_.get(), 64) == 0 &&
            ::getsockname(fd_.get(), reinterpret_cast<sockaddr *>(&address), &size) == 0;
        EXPECT_TRUE(ok) << "cannot listen: " << std::strerror(errno);
        port_ = ntohs(address.sin_port);
    }
    [[nodiscard]] int port() const { return port_; }
    // Connections made since the last call (accepted and closed now).
    int accepted() {
        int count = 0;
        while (sbx::UniqueFd(::accept4(fd_.get(), nullptr, nullptr, SOCK_CLOEXEC))) {
            ++count;
        }
        return count;
    }

  private:
    sbx::UniqueFd fd_;
    int port_ = 0;
};

// The first IPv4 address of an interface that is up and not loopback; "" when none.
std::string non_loopback_address() {
    ifaddrs *list = nullptr;
    if (::getifaddrs(&list) != 0) {
        return "";
    }
    std::string found;
    for (const ifaddrs *entry = list; entry != nullptr && found.empty(); entry = entry->ifa_next) {
        if (entry->ifa_addr == nullptr || entry->ifa_addr->sa_family != AF_INET ||
            (entry->ifa_flags & IFF_UP) == 0 || (entry->ifa_flags & IFF_LOOPBACK) != 0) {
            continue;
        }
        char text[INET_ADDRSTRLEN] = {};
        const auto *address = reinterpret_cast<const sockaddr_in *>(entry->ifa_addr);
        if (::inet_ntop(AF_INET, &address->sin_addr, text, sizeof text) != nullptr) {
            found = text;
        }
    }
    ::freeifaddrs(list);
    return found;
}

// A step that tries `address:port` with bash's /dev/tcp and says how it went, exit 0 either
// way: "connected", or "failed: <bash's error>".
std::string connect_step(const std::string &address, int port) {
    return "      - run: [/bin/bash, -c, 'if (exec 3<>/dev/tcp/" + address + "/" +
           std::to_string(port) +
           ") 2>err; then echo connected; else echo \"failed: $(cat err)\"; fi']\n";
}

class NetworkSafety : public sbx::test::CliTest {
  protected:
    NetworkSafety() : CliTest(RunBy::others_too) {}

    void SetUp() override {
        CliTest::SetUp();
        std::filesystem::create_directories(dir_ + "/tmp");
    }

    // Workflows `open` and `safe` (the same steps, safe_mode on the second), each step
    // reaching the listener at one address.
    void write_reach_settings(const std::vector<std::string> &addresses) {
        std::string steps;
        for (const std::string &address : addresses) {
            steps += connect_step(address, listener_.port());
        }
        write_settings(
            "presets:\n  - {SCENARIO_NAME: plain}\nworkflows:\n  - name: open\n"
            "    steps:\n" +
            steps + "  - name: safe\n    safe_mode: true\n    steps:\n" + steps);
        give_to_nobody(dir_);
        give_to_nobody(dir_ + "/tmp");
        give_to_nobody(settings_);
    }

    // sandbox-runner ARGS as root (when the test is) or as nobody, with its own TMPDIR.
    sbx::test::CommandResult as(bool unprivileged, const std::vector<std::string> &args) {
        return runner_as(unprivileged, args);
    }

    // The stdout of each step of the last run of `workflow`, in step order.
    std::vector<std::string> outputs(const std::string &workflow) {
        std::vector<std::string> found;
        for (const auto &row :
             query("SELECT json_extract(s.result, '$.stdout') FROM steps s JOIN runs r ON r.id = "
                   "s.run_id WHERE r.workflow = '" +
                   workflow + "' AND r.flag = 'on' ORDER BY s.rowid")) {
            found.push_back(row[0]);
        }
        return found;
    }

    void reach_and_cut_off(bool unprivileged) {
        std::vector<std::string> addresses = {"127.0.0.1"};
        const std::string outside = non_loopback_address();
        if (!outside.empty()) {
            addresses.push_back(outside);
        }
        write_reach_settings(addresses);

        const auto open = as(unprivileged, {"run", "--workflow", "open", "--runs", "1"});
        ASSERT_EQ(open.exit_code, 0) << open.err << open.out;
        for (const std::string &out : outputs("open")) {
            EXPECT_EQ(out, "connected\n");
        }
        EXPECT_EQ(listener_.accepted(), static_cast<int>(addresses.size()));

        const auto safe = as(unprivileged, {"run", "--workflow", "safe", "--runs", "1"});
        ASSERT_EQ(safe.exit_code, 0) << safe.err << safe.out;
        const auto safe_out = outputs("safe");
        ASSERT_EQ(safe_out.size(), addresses.size());
        // The namespace's own loopback has nothing on that port; anything else has no route.
        EXPECT_NE(safe_out[0].find("failed: "), std::string::npos) << safe_out[0];
        EXPECT_NE(safe_out[0].find("Connection refused"), std::string::npos) << safe_out[0];
        if (safe_out.size() > 1) {
            EXPECT_NE(safe_out[1].find("Network is unreachable"), std::string::npos) << safe_out[1];
        }
        EXPECT_EQ(listener_.accepted(), 0) << "a safe_mode run reached the host's listener";
        const auto held = query(
            "SELECT json_extract(s.result, '$.safe_mode'), json_extract(s.result, '$.netns') "
            "FROM steps s ORDER BY s.rowid DESC LIMIT 1");
        ASSERT_EQ(held.size(), 1U);
        EXPECT_EQ(held[0][0], "netns");
        EXPECT_FALSE(held[0][1].empty());
    }

    HostListener listener_;
};

TEST_F(NetworkSafety, SafeModeCutsTheRunOffTheHostsListener) {
    reach_and_cut_off(false);
}

TEST_F(NetworkSafety, SafeModeHoldsWithoutRoot) {
    reach_and_cut_off(true);
}

TEST_F(NetworkSafety, TopLevelSafeModeIsEveryWorkflowsDefault) {
    write_settings(
        "safe_mode: true\npresets:\n  - {SCENARIO_NAME: plain}\nworkflows:\n"
        "  - name: safe\n    steps:\n" +
        connect_step("127.0.0.1", listener_.port()) +
        "  - name: open\n    safe_mode: false\n    steps:\n" +
        connect_step("127.0.0.1", listener_.port()));
    ASSERT_EQ(runner({"run", "--workflow", "safe", "--runs", "1"}).exit_code, 0);
    ASSERT_EQ(runner({"run", "--workflow", "open", "--runs", "1"}).exit_code, 0);
    ASSERT_EQ(outputs("safe").size(), 1U);
    EXPECT_NE(outputs("safe")[0].find("Connection refused"), std::string::npos);
    EXPECT_EQ(outputs("open"), std::vector<std::string>{"connected\n"});
    EXPECT_EQ(listener_.accepted(), 1);
}

TEST_F(NetworkSafety, ANetworkMockAnswersInsideASafeModeRun) {
    // `payments` on any port (the variable says where), `ledger` on a fixed one the target
    // has written in; both reached from inside the namespace through fault_proxy.
    write_settings(R"(
presets:
  - {SCENARIO_NAME: plain}
workflows:
  - name: pay
    safe_mode: true
    network_mocks:
      - {name: payments, status: 201, body: stubbed, headers: {Content-Type: text/plain, X-Mock: "yes"}}
      - {name: ledger, listen: 18089, body: '{"balance": 3}'}
    steps:
      - run: [/bin/sh, -c, 'curl -sS -i --max-time 20 "http://$SANDBOX_UPSTREAM_PAYMENTS/charge" -d amount=3; curl -sS --max-time 20 http://127.0.0.1:18089/balance']
        expect: {stdout_contains: stubbed}
)");
    const auto ran = runner({"run", "--workflow", "pay", "--runs", "1", "--json"});
    ASSERT_EQ(ran.exit_code, 0) << ran.err << ran.out;
    const auto out = outputs("pay");
    ASSERT_EQ(out.size(), 1U);
    EXPECT_NE(out[0].find("HTTP/1.1 201 Created"), std::string::npos) << out[0];
    EXPECT_NE(out[0].find("Content-Type: text/plain"), std::string::npos) << out[0];
    EXPECT_NE(out[0].find("X-Mock: yes"), std::string::npos) << out[0];
    EXPECT_NE(out[0].find("\r\n\r\nstubbed{\"balance\": 3}"), std::string::npos) << out[0];
    const auto counted = query(
        "SELECT json_extract(s.result, '$.network_mocks.payments.requests'), "
        "json_extract(s.result, '$.network_mocks.ledger.requests'), "
        "json_extract(s.result, '$.safe_mode') FROM steps s");
    ASSERT_EQ(counted.size(), 1U);
    EXPECT_EQ(counted[0], (std::vector<std::string>{"1", "1", "netns"}));
}

TEST_F(NetworkSafety, ANetworkMockAnswersWithoutSafeModeAndWithoutInjectors) {
    write_file("answer.json", R"({"ok": true})");
    write_settings(R"(
injectors: []
presets:
  - {SCENARIO_NAME: plain}
workflows:
  - name: fetch
    network_mocks:
      - {name: api, body_file: answer.json}
    steps:
      - run: [/bin/sh, -c, 'curl -sS --max-time 20 "http://$SANDBOX_UPSTREAM_API/"']
)");
    const auto ran = runner({"run", "--workflow", "fetch", "--runs", "1"});
    ASSERT_EQ(ran.exit_code, 0) << ran.err << ran.out;
    EXPECT_EQ(outputs("fetch"), std::vector<std::string>{R"({"ok": true})"});
}

// Each bad setting: exit 2, the file:line:column of the culprit, what to write.
TEST_F(NetworkSafety, BadSettingsStopWithTheirLine) {
    struct Case {
        std::string yaml;
        std::string where;
        std::string says;
    };
    const std::string head = "presets:\n  - {SCENARIO_NAME: plain}\nworkflows:\n  - name: w\n";
    const std::string step = "    steps: [{run: [/bin/true]}]\n";
    const std::vector<Case> cases = {
        {head + "    network_mocks:\n      - {body: x}\n" + step, ":6:9:", "has no name"},
        {head + "    network_mocks:\n      - {name: m, listen: 70000}\n" + step,
         ":6:27:", "write a port from 1 to 65535"},
        {head +
             "    upstreams: [{name: api, listen: 127.0.0.1:0, target: 127.0.0.1:9}]\n"
             "    network_mocks:\n      - {name: API}\n" +
             step,
         ":7:9:", "is taken by upstream 'api'"},
        {head + "    network_mocks:\n      - {name: m, status: 99}\n" + step,
         ":6:27:", "not an HTTP status"},
        {"injectors: [fault_proxy]\n" + head + "    safe_mode: true\n" + step,
         ":6:16:", "add network to injectors:"},
        {head + "    safe_mode: true\n    executor: qemu\n" + step, ":5:16:",
         "executor 'qemu' does not say it runs targets inside the run's network namespace"},
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(c.yaml);
        write_settings(c.yaml);
        const auto ran = runner({"run", "--workflow", "w", "--runs", "1"});
        EXPECT_EQ(ran.exit_code, 2) << ran.err;
        EXPECT_NE(ran.err.find("settings.yaml" + c.where), std::string::npos) << ran.err;
        EXPECT_NE(ran.err.find(c.says), std::string::npos) << ran.err;
    }
}

}  // namespace
