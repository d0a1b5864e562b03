// One running guest: a QEMU process booted from a GuestPlan in its overlay folder, its agent
// reachable over the control channel. Several threads may run jobs on it at once: a reader
// thread hands each answer to the thread waiting for it. Stopping it (destructor) powers it
// off, kills it if it does not go, reaps it, and removes the overlay folder.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "control_channel.hpp"
#include "guest_plan.hpp"
#include "overlay_dir.hpp"

namespace sbx::qemu {

// A boot that failed: QEMU would not start, died, or the agent never said "ready".
class BootFailure : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

class GuestVm {
  public:
    using Clock = std::chrono::steady_clock;

    // Boots and waits for the agent's "ready" within the plan's boot timeout. Throws
    // BootFailure with QEMU's own message or the tail of the guest console.
    GuestVm(const GuestPlan &plan, std::unique_ptr<OverlayDir> overlay,
            const std::function<bool()> &cancelled);
    ~GuestVm();
    GuestVm(const GuestVm &) = delete;
    GuestVm &operator=(const GuestVm &) = delete;

    [[nodiscard]] const GuestPlan &plan() const { return plan_; }
    [[nodiscard]] std::string share() const { return overlay_->share(); }
    [[nodiscard]] pid_t pid() const { return pid_; }
    // False once QEMU has exited or the channel broke. [any thread]
    bool usable();
    // Asks the agent to run job `id`; its answer line ("done N", "fail N why"), or nullopt
    // when the guest died, the deadline passed, or `keep_waiting()` turned false. [any thread]
    std::optional<std::string> run_job(std::uint64_t id, Clock::time_point deadline,
                                       const std::function<bool()> &keep_waiting);
    // A job folder (jobs/<N> in the share) for one run at a time: one given back is reused,
    // its files already open in the agent (every 9p walk and open costs the guest round
    // trips to QEMU). [any thread]
    std::uint64_t take_job_folder();
    // Gives folder `n` back for the next run; only once finish_job emptied it. [any thread]
    void return_job_folder(std::uint64_t n);
    // Counts a run served and returns how many it has served. [any thread]
    std::uint64_t count_run() { return ++runs_served_; }
    // What the guest printed on its console last (for a diagnostic).
    [[nodiscard]] std::string console_tail() const;
    // Kills QEMU now (a lost or cancelled guest); the destructor then only cleans up.
    // [any thread]: instances sharing the guest may all call it at once on cancellation.
    void kill_now();

  private:
    void spawn();
    void stop_keeper();
    void stop_reader();
    void read_answers();
    bool exited();

    GuestPlan plan_;
    std::unique_ptr<OverlayDir> overlay_;
    // Held while kill_now() joins the reader and the keeper: a second caller waits, then
    // finds them joined (joining a std::thread twice at once is undefined, and hung).
    std::mutex stop_mutex_;
    ControlChannel channel_;
    std::mutex reap_mutex_;  // guards pid_'s reaping
    std::mutex send_mutex_;  // one line at a time on the channel
    // Answers by job id, filled by reader_.
    std::thread reader_;
    std::mutex answers_mutex_;
    std::condition_variable answer_ready_;
    std::map<std::uint64_t, std::string> answers_;
    std::set<std::uint64_t> awaited_;  // ids a run_job() waits for
    std::atomic<std::uint64_t> runs_served_{0};
    std::mutex folders_mutex_;
    std::vector<std::uint64_t> free_folders_;  // under folders_mutex_
    std::uint64_t folders_made_ = 0;           // under folders_mutex_
    // QEMU's parent-death signal fires when the *thread* that forked it ends, and the host
    // calls an instance from short-lived threads too; so a thread of our own forks QEMU and
    // lives exactly as long as the guest.
    std::thread keeper_;
    std::mutex keeper_mutex_;
    std::condition_variable keeper_wake_;
    pid_t pid_ = -1;
    std::atomic<bool> stopping_{false};
    bool reaped_ = false;        // under reap_mutex_
    bool channel_down_ = false;  // under answers_mutex_
    bool keeper_stop_ = false;   // under keeper_mutex_
};

}  // namespace sbx::qemu
