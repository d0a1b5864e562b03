// The alert hook: the table first (nothing is lost when the command fails or the host is
// killed while it runs), then the command, outside the store's lock, then its outcome.
#include "store/alert_dispatch.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>

#include "util/command_output.hpp"

namespace sbx::store {
namespace {

using nlohmann::json;

constexpr std::chrono::seconds kCommandDeadline{10};

struct HookState {
    std::mutex mutex;
    AlertHook hook;
    // Per image: the docker executor's threshold crossings already alerted on.
    std::map<std::string, int64_t> start_alerts_seen;
};

HookState &state() {
    static HookState held;
    return held;
}

// {image: times it crossed the threshold} from the docker executor's counters.
std::map<std::string, int64_t> start_alerts(const std::filesystem::path &state_dir) {
    std::map<std::string, int64_t> counts;
    if (state_dir.empty()) {
        return counts;
    }
    std::ifstream in(state_dir / "docker" / "pool_failures.json");
    const json counters = json::parse(in, nullptr, false);
    if (!counters.is_object()) {
        return counts;
    }
    for (const auto &[image, entry] : counters.items()) {
        if (entry.is_object() && entry.value("alerts", int64_t{0}) > 0) {
            counts[image] = entry.value("alerts", int64_t{0});
        }
    }
    return counts;
}

// The command's view of one alert.
std::vector<std::string> alert_environment(const AlertRecord &alert) {
    const json text = {{"kind", alert.kind},
                       {"subject", alert.subject},
                       {"message", alert.message},
                       {"session", alert.session_id ? json(*alert.session_id) : json()},
                       {"at", utc_now()}};
    return {"SANDBOX_ALERT=" + text.dump(-1, ' ', false, json::error_handler_t::replace),
            "SANDBOX_ALERT_KIND=" + alert.kind, "SANDBOX_ALERT_MESSAGE=" + alert.message};
}

int64_t count(Store &store, const std::string &sql, int64_t session) {
    return store.locked([&](Connection &connection) {
        Statement query(connection.get(), sql);
        query.bind(1, session);
        return query.step() ? query.column_int(0) : int64_t{0};
    });
}

// Images that crossed the threshold again since the last look (their streak counts), and
// the state folder they were read from.
std::map<std::string, int64_t> new_start_alerts(std::filesystem::path &state_dir) {
    auto &held = state();
    {
        const std::lock_guard<std::mutex> lock(held.mutex);
        state_dir = held.hook.state_dir;
    }
    const auto now = start_alerts(state_dir);  // the file read outside the lock
    std::map<std::string, int64_t> fresh;
    const std::lock_guard<std::mutex> lock(held.mutex);
    for (const auto &[image, crossings] : now) {
        if (crossings > held.start_alerts_seen[image]) {
            fresh[image] = crossings;
        }
        held.start_alerts_seen[image] = crossings;
    }
    return fresh;
}

}  // namespace

void set_alert_hook(const AlertHook &hook) {
    auto &held = state();
    const std::lock_guard<std::mutex> lock(held.mutex);
    held.hook = hook;
    held.start_alerts_seen = start_alerts(hook.state_dir);
}

void raise_alert(Store &store, AlertRecord alert) noexcept {
    try {
        std::vector<std::string> command;
        {
            auto &held = state();
            const std::lock_guard<std::mutex> lock(held.mutex);
            command = held.hook.command;
        }
        // What it is about was said where it happened; this is the record of the alert.
        spdlog::debug("alert {}: {}", alert.kind, alert.message);
        if (command.empty()) {
            record_alert(store, alert);
            return;
        }
        // Recorded before the command runs: a host killed while it waits keeps the alert.
        alert.error = "the alert command did not end (the host stopped while it ran)";
        const int64_t id = record_alert(store, alert);
        const auto ran = util::command_output(command, kCommandDeadline, alert_environment(alert));
        if (!ran.ok()) {
            spdlog::warn("alert_command {} did not take the {} alert: {}", command.front(),
                         alert.kind, ran.failure());
        }
        settle_alert(store, id, ran.ok(), ran.ok() ? "" : ran.failure());
    } catch (const std::exception &e) {
        spdlog::warn("alert {} not recorded: {}", alert.kind, e.what());
    }
}

void raise_session_end_alerts(Store &store, int64_t session, const std::string &status) noexcept {
    try {
        const std::string id = std::to_string(session);
        if (status == "interrupted" || status == "failed") {
            raise_alert(store, {session, "session_failed", id,
                                "session " + id + " ended " + status +
                                    (status == "interrupted"
                                         ? " (a signal); --recover finishes it"
                                         : " (an error ended the command); the log says which"),
                                false, ""});
        }
        const int64_t errored =
            count(store, "SELECT COALESCE(SUM(errored_runs), 0) FROM cells WHERE session_id = ?",
                  session);
        if (errored > 0) {
            raise_alert(store, {session, "sandbox_errors", id,
                                std::to_string(errored) + " runs of session " + id +
                                    " were errors of the sandbox, not verdicts on the target "
                                    "(an injector, the executor or a service failed)",
                                false, ""});
        }
        std::filesystem::path state_dir;
        const auto fresh = new_start_alerts(state_dir);
        for (const auto &[image, crossings] : fresh) {
            raise_alert(store,
                        {session, "container_start_failures", image,
                         "image " + image +
                             " failed to start SANDBOX_POOL_FAIL_THRESHOLD times in a row (" +
                             std::to_string(crossings) + " such streaks); counters in " +
                             (state_dir / "docker" / "pool_failures.json").string(),
                         false, ""});
        }
    } catch (const std::exception &e) {
        spdlog::warn("alerts of session {} not raised: {}", session, e.what());
    }
}

}  // namespace sbx::store
