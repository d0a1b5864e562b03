// The `qemu` executor plugin: runs each command in a QEMU guest. A guest boots once (about
// 5.5 s of software emulation here) and then serves run after run through its agent, so a
// matrix pays for one boot per worker, not one per run.
#include <sbx/plugin.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iomanip>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "config.hpp"
#include "guest_plan.hpp"
#include "guest_pool.hpp"
#include "guest_vm.hpp"
#include "job_exchange.hpp"
#include "overlay_dir.hpp"
#include "result.hpp"
#include "support/blank_result.hpp"
#include "support/number_parse.hpp"
#include "support/run_spec.hpp"
#include "support/workspace.hpp"

namespace sbx::qemu {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// Overlay roots already purged of dead hosts' leftovers by this process: once is enough.
bool first_use_of(const std::string &root) {
    static std::mutex mutex;
    static std::set<std::string> seen;
    const std::lock_guard<std::mutex> lock(mutex);
    return seen.insert(root).second;
}

std::string dump(const json &value) {
    return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

double ms_between(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double, std::milli>(to - from).count();
}

// Where a warm run's time went, for the debug log (tools/bench/qemu reads it): the host's
// steps on its clock, the guest's from the result's phases_us on the guest's clock, and the
// rest of the round trip, which neither side can time alone: the "run N" line in, the
// worker's scheduling, the result's write and the "done N" line out.
std::string timing_line(std::uint64_t id, double write_ms, double round_trip_ms, double read_ms,
                        double copy_back_ms, const std::string &phases_us) {
    static constexpr const char *kGuestPhases[] = {"start", "request", "setup", "target",
                                                   "collect"};
    std::ostringstream line;
    line << std::fixed << std::setprecision(2) << "timing job " << id << ": host_write " << write_ms
         << " ms";
    double guest_ms = 0;
    std::istringstream items(phases_us);
    std::string item;
    for (const char *name : kGuestPhases) {
        if (!std::getline(items, item, ',')) {
            break;
        }
        const double ms = static_cast<double>(support::parse_uint64(item).value_or(0)) / 1000;
        guest_ms += ms;
        line << ", guest_" << name << " " << ms << " ms";
    }
    line << ", exchange " << std::max(0.0, round_trip_ms - guest_ms) << " ms, host_read " << read_ms
         << " ms, host_copy_back " << copy_back_ms << " ms; round_trip " << round_trip_ms << " ms";
    return line.str();
}

}  // namespace

class QemuExecutor final : public Executor {
  public:
    static constexpr About about{
        "qemu",
        "QEMU executor",
        "1.0.0",
        "Runs a command in a QEMU guest (Debian kernel, busybox initramfs, a 9p share for the "
        "workspace) with memory, pids, CPU and time limits enforced inside the guest; one "
        "boot serves many runs.",
        kConfigSchema,
        "sandbox-runner"};

    explicit QemuExecutor(const std::string &config_json) : config_(parse_config(config_json)) {}

    std::string run(const std::string &spec_json) override {
        if (host::cancelled()) {
            throw Error(SBX_CANCELLED, "run not started: the host is cancelling");
        }
        const json raw = support::parse_spec_object(spec_json);
        const support::RunSpec spec = support::read_run_spec(
            raw, support::RunSpecDefaults{config_.default_timeout_ms, config_.output_bytes});
        json result = support::blank_result(spec.run_id);
        result["executor"] = "qemu";
        if (spec.probe) {
            // The guest's cgroup v2 holds every limit as asked: nothing is downgraded, and a
            // probe must not boot a guest.
            result["status"] = "OK";
            result["probe"] = true;
            result["downgraded"] = json::array();
            return result.dump(-1, ' ', false, json::error_handler_t::replace);
        }
        if (!spec.netns.empty()) {
            result["error"] = "the qemu executor cannot run in network namespace '" + spec.netns +
                              "' (run spec: netns): the guest has no network; use the local "
                              "executor with the network injector";
            return finish(result);
        }
        const std::string os_type =
            raw.value("os_type", json()).is_string() ? raw["os_type"].get<std::string>() : "";
        const GuestPlan plan = plan_guest(config_, raw.value("vm_settings", json()), os_type);
        if (const std::string missing = missing_guest_files(plan, config_); !missing.empty()) {
            put_vm_error(result, missing, 0);
            result.erase("sandbox_fault");  // the setup's: no rerun would find the files
            return finish(result);
        }
        const std::string state_dir =
            raw.value("state_dir", json()).is_string() ? raw["state_dir"].get<std::string>() : "";
        const OverlayPlaces places = overlay_places(config_, state_dir);
        if (first_use_of(places.root)) {
            add_counters(sweep_overlays(places, config_.overlay_max_age_s, false).counters);
        }

        support::Workspace workspace = support::Workspace::for_spec(
            spec.workspace, spec.keep_workspace, config_.workspace_root, spec.run_id);
        if (workspace.survives()) {
            result["workspace"] = workspace.path();
        }
        workspace.write_files(spec.files);

        const bool booted = ensure_guest(plan, places, result);
        if (!guest_) {
            return finish(result);
        }
        // The job's folder number is its id on the control line: the guest's folders are
        // used by one run at a time.
        const std::uint64_t id = guest_->take_job_folder();
        const auto write_started = Clock::now();
        std::size_t request_bytes = 0;
        try {
            request_bytes = write_job(guest_->share(), id, spec, workspace.path());
        } catch (const std::exception &e) {
            result["error"] = std::string("cannot hand the run to the guest: ") + e.what();
            result["sandbox_fault"] = true;
            return finish(result);
        }
        // The agent enforces the run's own limit; this only catches a guest that stopped. A
        // limit beyond a year is no limit (and must not overflow the clock).
        constexpr std::uint64_t kYearMs = 365ULL * 24 * 3600 * 1000;
        const auto deadline = spec.limits.timeout_ms > 0 && spec.limits.timeout_ms < kYearMs
                                  ? Clock::now() + std::chrono::milliseconds(
                                                       spec.limits.timeout_ms +
                                                       std::min(config_.answer_slack_ms, kYearMs))
                                  : Clock::time_point::max();
        const auto sent = Clock::now();
        const auto answer = guest_->run_job(
            id, deadline, [this] { return !host::cancelled() && guest_->usable(); });
        if (host::cancelled()) {
            drop_guest(true);
            throw Error(SBX_CANCELLED, "run cancelled by the host; the guest was stopped");
        }
        if (!answer) {
            // Lost: the guest died or hangs. It is stopped for every run that shares it.
            const std::string console = guest_->console_tail();
            const std::string why = guest_->usable() ? "the guest did not answer within the "
                                                       "run's limit plus answer_slack_ms"
                                                     : "the guest stopped during the run";
            drop_guest(true);
            put_vm_error(result, why + (console.empty() ? "" : "; console: " + console), 1);
            return finish(result);
        }
        if (*answer != "done " + std::to_string(id)) {
            // The agent could not run this one job (a fork that failed, say): this run is XX,
            // the guest and the runs beside it go on.
            put_vm_error(result, "the guest agent answered '" + *answer + "'", 1);
            return finish(result);
        }
        const auto answered = Clock::now();
        try {
            const AgentReport report =
                read_report(guest_->share(), id, request_bytes,
                            static_cast<std::size_t>(spec.limits.output_bytes));
            put_report(result, report, spec);
            const auto read_back = Clock::now();
            const FinishedJob finished = finish_job(guest_->share(), id, workspace.path());
            if (finished.skipped > 0) {
                result["workspace_error"] = std::to_string(finished.skipped) +
                                            " entries of the guest's workspace could not be "
                                            "brought back (FIFOs, sockets, devices, or unreadable)";
            }
            if (finished.reusable) {
                guest_->return_job_folder(id);
            }
            host::log(SBX_LOG_DEBUG,
                      timing_line(id, ms_between(write_started, sent), ms_between(sent, answered),
                                  ms_between(answered, read_back),
                                  ms_between(read_back, Clock::now()), report.text("phases_us")));
        } catch (const std::exception &e) {
            put_vm_error(result, std::string("reading the run back: ") + e.what(), 1);
        }
        result["guest"] = {{"booted", booted},
                           {"boot_s", booted ? last_boot_s_ : 0.0},
                           {"runs_on_guest", guest_->count_run()},
                           {"pid", guest_->pid()},
                           {"kernel", plan.kernel}};
        return finish(result);
    }

    std::string sweep(const std::string &request_json) override {
        const json request = json::parse(request_json, nullptr, false);
        if (!request.is_object() ||
            (request.contains("dry_run") && !request["dry_run"].is_boolean())) {
            throw Error(
                SBX_INVALID,
                "sweep request must be an object {state_dir, dry_run: bool}, got " + request_json);
        }
        const std::string state_dir =
            request.is_object() && request.value("state_dir", json()).is_string()
                ? request["state_dir"].get<std::string>()
                : "";
        const bool dry_run = request.is_object() && request.value("dry_run", false);
        const OverlaySweep swept =
            sweep_overlays(overlay_places(config_, state_dir), config_.overlay_max_age_s, dry_run);
        json counters = json::object();
        for (const auto &[name, value] : swept.counters) {
            counters[name] = value;
        }
        return dump(json{{"removed", swept.removed}, {"counters", counters}});
    }

  private:
    // A guest for `plan`: the warm one when it matches and still answers, else the pool's
    // (another instance's), else a fresh boot, tried boot_attempts times with doubling
    // backoff. True when this call booted one. On failure guest_ is empty and `result`
    // records diagnostics.vm_error.
    bool ensure_guest(const GuestPlan &plan, const OverlayPlaces &places, json &result) {
        if (guest_ && guest_->plan().key() == plan.key() && guest_->usable()) {
            return false;
        }
        drop_guest(false);
        const auto boot = [&]() -> std::unique_ptr<GuestVm> {
            std::string last_error;
            std::uint64_t backoff_ms = config_.backoff_ms;
            for (std::uint64_t attempt = 1; attempt <= config_.boot_attempts; ++attempt) {
                if (attempt > 1) {
                    // In slices, so a cancellation is seen within 100 ms.
                    const auto until = Clock::now() + std::chrono::milliseconds(backoff_ms);
                    while (Clock::now() < until && !host::cancelled()) {
                        std::this_thread::sleep_for(
                            std::chrono::milliseconds(std::min<std::int64_t>(
                                100, std::chrono::duration_cast<std::chrono::milliseconds>(
                                         until - Clock::now())
                                         .count())));
                    }
                    backoff_ms = std::min<std::uint64_t>(backoff_ms * 2, 60000);
                }
                if (host::cancelled()) {
                    throw std::runtime_error("boot cancelled by the host");
                }
                const auto started = Clock::now();
                try {
                    auto guest = std::make_unique<GuestVm>(
                        plan, std::make_unique<OverlayDir>(places, config_, pending_),
                        [] { return host::cancelled(); });
                    last_boot_s_ = std::chrono::duration<double>(Clock::now() - started).count();
                    return guest;
                } catch (const std::exception &e) {
                    last_error = e.what();
                    host::log(SBX_LOG_WARN, "boot attempt " + std::to_string(attempt) + " of " +
                                                std::to_string(config_.boot_attempts) +
                                                " failed: " + last_error);
                }
            }
            throw std::runtime_error(last_error);
        };
        GuestPool::Lease lease = GuestPool::shared().acquire(plan.key(), boot);
        if (host::cancelled()) {
            throw Error(SBX_CANCELLED, "boot cancelled by the host");
        }
        if (!lease.guest) {
            put_vm_error(result, lease.error, config_.boot_attempts);
            return false;
        }
        guest_ = std::move(lease.guest);
        return lease.booted;
    }

    // Lets go of the current guest. `broken`: it is lost or cancelled, so it is stopped now
    // for every instance that shares it; otherwise it stops when its last user lets go.
    void drop_guest(bool broken) {
        if (!guest_) {
            return;
        }
        // The pool only holds weak references: the last holder's reset removes the overlay.
        // A broken guest is counted once, by the instance that takes it out of the pool.
        const bool last_user = guest_.use_count() == 1;
        bool counted = !broken && last_user;
        if (broken) {
            counted = GuestPool::shared().discard(guest_);
            guest_->kill_now();
        }
        if (counted) {
            pending_["runtime_vms_removed"] += 1;
        }
        guest_.reset();
    }

    void add_counters(const CleanupCounters &counters) {
        for (const auto &[name, value] : counters) {
            pending_[name] += value;
        }
    }

    // Attaches the cleanup counted since the last result (deltas, summed by the host).
    std::string finish(json &result) {
        if (!pending_.empty()) {
            json cleanup = json::object();
            for (const auto &[name, value] : pending_) {
                cleanup[name] = value;
            }
            result["cleanup"] = cleanup;
            pending_.clear();
        }
        return dump(result);
    }

    ExecutorConfig config_;
    CleanupCounters pending_;
    std::shared_ptr<GuestVm> guest_;
    double last_boot_s_ = 0;
};

}  // namespace sbx::qemu

SBX_PLUGIN(sbx::qemu::QemuExecutor);
