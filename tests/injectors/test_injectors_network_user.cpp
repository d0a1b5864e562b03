// The `user` kind of network namespace, the one a normal user gets: owned by a user
// namespace of the plugin's own, held open by the plugin alone. Asked for explicitly here
// (`namespace: user`), so that root proves it too; the unprivileged leg of tools/kernel-matrix
// gets it for every NetworkTest (auto), through the executor entering its owner.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "network_fixture.hpp"

namespace sbx::injectors_test {
namespace {

// The inode of the network namespace at `path`, or 0.
ino_t namespace_inode(const std::string &path) {
    struct stat info {};
    return ::stat(path.c_str(), &info) == 0 ? info.st_ino : 0;
}

// Whether any descriptor of this process still refers to the namespace `inode`.
bool held_here(ino_t inode) {
    for (const auto &entry : std::filesystem::directory_iterator("/proc/self/fd")) {
        struct stat info {};
        if (::stat(entry.path().c_str(), &info) == 0 && info.st_ino == inode) {
            return true;
        }
    }
    return false;
}

TEST_F(NetworkTest, AUserKindNamespaceIsUnnamedHasNoUplinkAndEndsWithItsLastHolder) {
    auto network = injector({{"namespace", "user"}, {"keep_namespaces", 0}});
    ino_t inode = 0;
    {
        PreparedRun run(*network, request({{"FAILURE_MODES", "network"}}, {probe(), "rtt", "1"}));
        const json &report = run.network();
        EXPECT_EQ(report.value("kind", ""), "user") << report.dump();
        EXPECT_FALSE(namespace_exists(report.value("namespace", "?")))
            << "a user's namespace is not in /run/netns: " << report.dump();
        EXPECT_TRUE(report.at("uplink").is_string())
            << "no uplink without root, and the report says why: " << report.dump();
        EXPECT_EQ(run.spec()["env"].count("SANDBOX_NETWORK_HOST"), 0U);
        inode = namespace_inode(report.value("netns", ""));
        ASSERT_NE(inode, 0U) << report.dump();
        EXPECT_TRUE(held_here(inode));
        const json measured = run_probe(run.spec());
        EXPECT_EQ(measured.value("lost", -1), 0) << "a loopback echo inside: " << measured.dump();
    }
    EXPECT_FALSE(held_here(inode)) << "keep_namespaces 0: let go at the run's teardown";
}

TEST_F(NetworkTest, AUserKindNamespaceDelaysDropsAndPartitionsWhatRunsInside) {
    auto network = injector({{"namespace", "user"}});
    const std::vector<std::string> rtt{probe(), "rtt", "6"};
    const double baseline_ms = run_plain(rtt).value("median_ms", -1.0);
    ASSERT_GE(baseline_ms, 0);
    {
        PreparedRun run(*network, request({{"NETWORK_LATENCY_MS", "100"}}, rtt));
        const json measured = run_probe(run.spec());
        std::cout << "[ measured  ] user kind, " << run.network().value("impairment", "?")
                  << ": baseline " << baseline_ms << " ms, with 100 ms: " << measured.dump()
                  << "\n";
        EXPECT_GE(measured.value("median_ms", 0.0), baseline_ms + 75.0) << measured.dump();
        EXPECT_LE(measured.value("median_ms", 1e9), baseline_ms + 150.0) << measured.dump();
    }
    {
        PreparedRun run(*network,
                        request({{"PACKET_LOSS", "30%"}}, {probe(), "loss", "300", "300"}));
        const json measured = run_probe(run.spec());
        const double loss = 1.0 - measured.value("unique", 0) / 300.0;
        std::cout << "[ measured  ] user kind: loss set 0.30, measured " << loss << "\n";
        EXPECT_NEAR(loss, 0.30, 0.10) << measured.dump();
    }
    {
        PreparedRun run(*network, request({{"FAILURE_MODES", "network_partition"}},
                                          {probe(), "connect", "192.0.2.1:80"}));
        const json measured = run_probe(run.spec());
        EXPECT_TRUE(measured.value("loopback_echo", false)) << measured.dump();
        EXPECT_NE(measured["targets"].value("192.0.2.1:80", ""), "")
            << "nothing outside is reachable: " << measured.dump();
    }
}

}  // namespace
}  // namespace sbx::injectors_test
