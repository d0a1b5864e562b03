// A run spec's network namespace under the docker executor: the target runs in it (it sees
// the namespace's interfaces, not the container's), without CAP_SYS_ADMIN, pooled or not;
// a namespace that cannot be entered is XX with the helper's reason.
#include <unistd.h>

#include <cstdlib>

#include "docker_executor_fixture.hpp"

namespace sbx::docker_test {
namespace {

// A named network namespace with an address of its own on lo, deleted with the object.
class NamedNamespace {
  public:
    explicit NamedNamespace(const std::string &name) : name_(name) {
        ok_ = test::run_command({"/bin/sh", "-c",
                                 "ip netns add " + name_ + " && ip -n " + name_ +
                                     " link set lo up && ip -n " + name_ +
                                     " addr add 192.0.2.77/32 dev lo"})
                  .exit_code == 0;
    }
    ~NamedNamespace() { test::run_command({"/bin/sh", "-c", "ip netns del " + name_}); }
    NamedNamespace(const NamedNamespace &) = delete;
    NamedNamespace &operator=(const NamedNamespace &) = delete;
    [[nodiscard]] bool ok() const { return ok_; }
    [[nodiscard]] std::string path() const { return "/run/netns/" + name_; }

  private:
    std::string name_;
    bool ok_ = false;
};

class DockerNetns : public DockerExecutorTest, public ::testing::WithParamInterface<bool> {};

TEST_P(DockerNetns, TheTargetRunsInTheSpecsNamespaceWithoutSysAdmin) {
    NamedNamespace ns("sbx-docker-test-" + std::to_string(::getpid()));
    ASSERT_TRUE(ns.ok()) << "ip netns add failed (needs root and iproute2)";
    json s = spec({"sh", "-c", "ip addr; grep CapBnd /proc/self/status"});
    s["netns"] = ns.path();
    const json result = run(s, GetParam());
    ASSERT_EQ(result["status"], "OK") << result.dump();
    const std::string out = result["stdout"];
    EXPECT_NE(out.find("192.0.2.77"), std::string::npos) << "not in the namespace: " << out;
    EXPECT_EQ(result["netns"], ns.path());
    // CapBnd in hex; CAP_SYS_ADMIN is bit 21.
    const auto at = out.find("CapBnd:");
    ASSERT_NE(at, std::string::npos) << out;
    const unsigned long long bounding = std::strtoull(out.c_str() + at + 7, nullptr, 16);
    EXPECT_EQ(bounding & (1ULL << 21), 0U) << "the target kept CAP_SYS_ADMIN: " << out;
    EXPECT_NE(bounding, 0U) << "the container's other capabilities stay: " << out;
    if (GetParam()) {
        EXPECT_EQ(result["pool"], "netns: ran in a container of its own");
    }
}

TEST_P(DockerNetns, ANamespaceThatCannotBeEnteredIsXX) {
    // A regular file where the namespace should be: the bind mount works, setns does not.
    const std::string fake = state_dir_ + "/not-a-namespace";
    std::ofstream(fake) << "x";
    json s = spec({"true"});
    s["netns"] = fake;
    const json result = run(s, GetParam());
    EXPECT_EQ(result["status"], "XX") << result.dump();
    EXPECT_NE(result["error"].get<std::string>().find("cannot enter network namespace"),
              std::string::npos)
        << result.dump();
}

INSTANTIATE_TEST_SUITE_P(OneShotAndPooled, DockerNetns, ::testing::Values(false, true),
                         [](const auto &param_info) {
                             return param_info.param ? "pooled" : "one_shot";
                         });

}  // namespace
}  // namespace sbx::docker_test
