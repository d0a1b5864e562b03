// The burst process's body and the handshake that says its threads are running.
#include "thread_burst.hpp"

#include <sbx/plugin.hpp>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace sbx::concurrency_spike {
namespace {

using Clock = std::chrono::steady_clock;

// The prefix of the burst's record files under <state_dir>/concurrency_spike.
constexpr const char *kPrefix = "burst";
// How long prepare waits for the burst's threads to run.
constexpr int kReadyTimeoutMs = 5000;

void busy_for(std::chrono::microseconds span) {
    const auto until = Clock::now() + span;
    while (Clock::now() < until) {
    }
}

// A competing thread: half a millisecond of work holding the shared lock part of the
// time, half a millisecond asleep, forever — about half a core each, and a lock that is
// always contended, like a thread pool under load.
[[noreturn]] void compete(std::mutex &lock, std::atomic<std::uint64_t> &work) {
    for (;;) {
        {
            const std::lock_guard<std::mutex> held(lock);
            busy_for(std::chrono::microseconds(50));
        }
        busy_for(std::chrono::microseconds(450));
        work.fetch_add(1, std::memory_order_relaxed);
        std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
}

// A short task: a millisecond of work and one pass through the lock.
void short_task(std::mutex &lock) {
    busy_for(std::chrono::microseconds(1000));
    const std::lock_guard<std::mutex> held(lock);
}

[[noreturn]] void run_burst(const BurstPlan &plan, int ready_fd) {
    static std::mutex lock;
    static std::atomic<std::uint64_t> work{0};
    std::uint32_t started = 0;
    for (; started < plan.threads; ++started) {
        try {
            std::thread([] { compete(lock, work); }).detach();
        } catch (const std::system_error &) {
            break;  // out of threads: the burst is as big as the machine allows
        }
    }
    if (::write(ready_fd, &started, sizeof started) != sizeof started) {
        _exit(1);
    }
    ::close(ready_fd);
    const std::uint32_t wave = wave_size(plan);
    for (;;) {
        if (wave == 0) {
            ::pause();
            continue;
        }
        std::vector<std::thread> tasks;
        tasks.reserve(wave);
        for (std::uint32_t i = 0; i < wave; ++i) {
            try {
                tasks.emplace_back([] { short_task(lock); });
            } catch (const std::system_error &) {
                break;
            }
        }
        for (auto &task : tasks) {
            task.join();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
}

class Pipe {
  public:
    Pipe() {
        if (::pipe2(ends_, O_CLOEXEC) != 0) {
            throw Error(SBX_ERROR,
                        std::string("cannot make the burst's pipe: ") + std::strerror(errno));
        }
    }
    ~Pipe() {
        close_write();
        ::close(ends_[0]);
    }
    Pipe(const Pipe &) = delete;
    Pipe &operator=(const Pipe &) = delete;
    [[nodiscard]] int read_end() const { return ends_[0]; }
    [[nodiscard]] int write_end() const { return ends_[1]; }
    void close_write() {
        if (ends_[1] >= 0) {
            ::close(ends_[1]);
            ends_[1] = -1;
        }
    }

  private:
    int ends_[2] = {-1, -1};
};

}  // namespace

Burst start_burst(const BurstPlan &plan, const std::filesystem::path &state_dir) {
    Pipe ready;
    Burst burst;
    burst.process = support::start_helper(
        state_dir, kPrefix, [&] { run_burst(plan, ready.write_end()); }, ready.write_end());
    ready.close_write();  // so a burst that dies before reporting gives end-of-file
    pollfd waiting{ready.read_end(), POLLIN, 0};
    int polled = 0;
    while ((polled = ::poll(&waiting, 1, kReadyTimeoutMs)) < 0 && errno == EINTR) {
    }
    const ssize_t got =
        polled > 0 ? ::read(ready.read_end(), &burst.threads_started, sizeof burst.threads_started)
                   : -1;
    if (got != static_cast<ssize_t>(sizeof burst.threads_started)) {
        support::stop_helper(burst.process);
        throw Error(SBX_ERROR, polled == 0 ? "the thread burst did not start its threads within " +
                                                 std::to_string(kReadyTimeoutMs) + " ms"
                                           : std::string("the thread burst process died before "
                                                         "its threads ran"));
    }
    return burst;
}

}  // namespace sbx::concurrency_spike
