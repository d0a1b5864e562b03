// Container starts go through the process's start gate: never more than `parallel_starts`
// creates and starts in flight, so an engine on a busy machine makes each container quickly
// instead of all of them slowly (runs then failed on the engine's deadlines, the sandbox's
// fault). The gate alone with threads, then the real engine's event stream.
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "docker_executor_fixture.hpp"
#include "start_gate.hpp"

namespace sbx::docker_test {
namespace {

using docker::StartGate;

TEST(DockerStartGate, NeverMoreThanItsCapacityInFlightAndEveryoneGetsThrough) {
    StartGate gate;
    std::atomic<int> inside{0};
    std::atomic<int> most{0};
    std::atomic<int> through{0};
    std::vector<std::thread> threads;
    threads.reserve(8);
    for (int i = 0; i < 8; ++i) {
        threads.emplace_back([&] {
            const auto pass = gate.enter(2, [] { return false; });
            ASSERT_TRUE(pass.has_value());
            const int now = ++inside;
            for (int seen = most.load(); now > seen && !most.compare_exchange_weak(seen, now);) {
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            --inside;
            ++through;
        });
    }
    for (auto &thread : threads) {
        thread.join();
    }
    EXPECT_EQ(through, 8);
    EXPECT_EQ(most, 2) << "eight threads against a gate of two";
    EXPECT_EQ(gate.in_flight(), 0U) << "every pass was given back";
}

TEST(DockerStartGate, TurnsGoInArrivalOrder) {
    StartGate gate;
    auto held = gate.enter(1, [] { return false; });
    ASSERT_TRUE(held.has_value());
    std::mutex order_mutex;
    std::vector<int> order;
    std::vector<std::thread> threads;
    threads.reserve(4);
    for (int i = 0; i < 4; ++i) {
        threads.emplace_back([&, i] {
            const auto pass = gate.enter(1, [] { return false; });
            const std::lock_guard lock(order_mutex);
            order.push_back(i);
        });
        // The next one comes only once this one waits in line.
        while (gate.waiting() != static_cast<size_t>(i) + 1) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }
    held.reset();
    for (auto &thread : threads) {
        thread.join();
    }
    EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3}));
}

TEST(DockerStartGate, AWaiterLeavesEmptyHandedWhenCancelled) {
    StartGate gate;
    const auto held = gate.enter(1, [] { return false; });
    ASSERT_TRUE(held.has_value());
    std::atomic<bool> cancel{false};
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        cancel = true;
    });
    const auto waited = gate.enter(1, [&] { return cancel.load(); });
    canceller.join();
    EXPECT_FALSE(waited.has_value());
    EXPECT_EQ(gate.in_flight(), 1U);
    EXPECT_EQ(gate.waiting(), 0U) << "a cancelled waiter leaves the line";
}

TEST(DockerStartGate, ZeroMeansTheMachinesHardwareThreads) {
    EXPECT_EQ(docker::parallel_starts_capacity(0),
              std::max(1U, std::thread::hardware_concurrency()));
    EXPECT_EQ(docker::parallel_starts_capacity(3), 3U);
}

class DockerStarts : public DockerExecutorTest {};

// Four instances (as the copies of a concurrency spike get) run at once with a gate of one:
// the engine sees each container created and started before the next is created.
TEST_F(DockerStarts, InstancesOfOneProcessShareTheGate) {
    const std::string label = "sbx-gate-test-" + std::to_string(::getpid());
    json cfg = config(false);
    cfg["pool_label"] = label;
    cfg["parallel_starts"] = 1;
    cfg["purge_at_start"] = false;
    const std::string since = docker("system info --format '{{.SystemTime}}'");
    ASSERT_FALSE(since.empty());
    std::vector<std::unique_ptr<plugins::Instance>> instances;
    instances.reserve(4);
    for (int i = 0; i < 4; ++i) {
        instances.push_back(docker_plugin()->create(cfg));
    }
    std::vector<json> results(instances.size());
    std::vector<std::thread> threads;
    threads.reserve(instances.size());
    for (size_t i = 0; i < instances.size(); ++i) {
        threads.emplace_back([&, i] { results[i] = run_on(*instances[i], spec({"true"})); });
    }
    for (auto &thread : threads) {
        thread.join();
    }
    for (const auto &result : results) {
        EXPECT_EQ(result["status"], "OK") << result.dump();
    }
    const std::string until = docker("system info --format '{{.SystemTime}}'");
    std::string trimmed_since = since.substr(0, since.find('\n'));
    std::string trimmed_until = until.substr(0, until.find('\n'));
    const std::string events =
        docker("events --since '" + trimmed_since + "' --until '" + trimmed_until +
               "' --filter label=" + label +
               " --filter event=create --filter event=start --format '{{.Action}}'");
    EXPECT_EQ(events, "create\nstart\ncreate\nstart\ncreate\nstart\ncreate\nstart\n");
}

}  // namespace
}  // namespace sbx::docker_test
