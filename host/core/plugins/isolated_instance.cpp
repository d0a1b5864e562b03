// Calls into a child plugin host, with deadlines, cancellation and restarts.
#include "plugins/isolated_instance.hpp"

#include <nlohmann/json.hpp>

#include "plugins/call_watch.hpp"

#include <limits>

namespace sbx::plugins {
namespace {

using Clock = PluginProcess::Clock;
using Kind = PluginProcess::Received::Kind;

Clock::time_point after(std::chrono::milliseconds span) {
    if (span.count() <= 0) {
        return Clock::time_point::max();
    }
    return Clock::now() + span;
}

std::string seconds_text(std::chrono::milliseconds span) {
    const double seconds = static_cast<double>(span.count()) / 1000.0;
    char text[32];
    std::snprintf(text, sizeof(text), "%g s", seconds);
    return text;
}

}  // namespace

IsolatedInstance::IsolatedInstance(std::shared_ptr<const Plugin> plugin, std::string config)
    : Instance(std::move(plugin)), config_(std::move(config)) {
    start();
}

std::string IsolatedInstance::who() const {
    return "plugin " + plugin_->id() + " (" + plugin_->path().string() + ")";
}

void IsolatedInstance::start() {
    process_ = std::make_unique<PluginProcess>(plugin_->path(), PluginProcess::Mode::serve,
                                               plugin_->policy().memory_bytes);
    const auto deadline = after(deadline_of(plugin_->policy(), std::nullopt));
    auto hello = process_->receive(deadline);
    if (hello.kind == Kind::frame && hello.frame.type == wire::FrameType::refused) {
        process_.reset();
        throw PluginError(hello.frame.payload);
    }
    if (hello.kind != Kind::frame || hello.frame.type != wire::FrameType::hello) {
        fail("while loading", hello);
    }
    if (!process_->send(wire::FrameType::create, config_)) {
        fail("in create", {Kind::died, {}, process_->kill_and_reap()});
    }
    auto created = process_->receive(deadline);
    if (created.kind == Kind::frame && created.frame.type == wire::FrameType::refused) {
        process_.reset();
        // The plugin refused the configuration the user wrote: bad input (exit 2). The
        // child's message names the plugin already.
        throw PluginError(created.frame.payload);
    }
    if (created.kind != Kind::frame || created.frame.type != wire::FrameType::created) {
        fail("in create", created);
    }
}

bool IsolatedInstance::near_memory_limit() const {
    const uint64_t limit = plugin_->policy().memory_bytes;
    // Rationale: at the limit malloc fails, and what the plugin then does (a NULL write, an
    // abort on std::bad_alloc, an error answer) happens with its memory close to the limit;
    // resident memory trails the data counted, so three quarters of it is the mark.
    return limit > 0 && process_ && process_->peak_memory_bytes() >= limit / 4 * 3;
}

std::string IsolatedInstance::memory_text() const {
    const uint64_t mib = plugin_->policy().memory_bytes / (uint64_t{1024} * 1024);
    return "ran out of memory at its limit of " + std::to_string(mib) +
           " MiB (plugin_host.memory_mb); it was killed";
}

Clock::time_point IsolatedInstance::deadline_for(PluginCall which,
                                                 const std::string &request) const {
    const auto policy = deadline_of(plugin_->policy(), which);
    if (which != PluginCall::run) {
        return after(policy);
    }
    // The executor holds the run to its timeout; the plugin gets the policy's span on top
    // for setting up and tearing down. A run without a timeout waits as long as it takes.
    int64_t timeout_ms = 0;
    try {
        const auto spec = nlohmann::json::parse(request);
        timeout_ms = spec.at("limits").value("timeout_ms", int64_t{0});
    } catch (const nlohmann::json::exception &) {
        timeout_ms = 0;
    }
    if (timeout_ms <= 0 || policy.count() <= 0) {
        return Clock::time_point::max();
    }
    return after(policy + std::chrono::milliseconds(timeout_ms));
}

void IsolatedInstance::fail(const std::string &doing, const PluginProcess::Received &received,
                            std::optional<PluginCall> which) {
    std::string what = received.why;
    CallFailure failure = CallFailure::crash;
    if (received.kind == Kind::timed_out) {
        what = "did not answer within " + seconds_text(deadline_of(plugin_->policy(), which)) +
               " (plugin_host.call_deadline_s); it was killed";
        failure = CallFailure::hang;
    } else if (received.kind == Kind::frame || received.kind == Kind::garbage) {
        what = received.kind == Kind::frame ? "sent an unexpected frame" : what;
        failure = CallFailure::garbage;
    }
    if (process_) {
        process_->kill_and_reap();
        if (failure == CallFailure::crash && near_memory_limit()) {
            what = memory_text() + " after it " + what;
            failure = CallFailure::memory;
        }
        process_.reset();
    }
    const std::string message = who() + " " + what + " " + doing;
    if (received.kind == Kind::cancelled) {
        throw PluginCallError(SBX_CANCELLED, message);
    }
    ++failures_;
    if (plugin_->policy().stop_on_crash) {
        throw PluginCrashError(message + " (plugin_host.on_crash: stop)");
    }
    throw PluginCallError(SBX_ERROR, message, failure);
}

std::string IsolatedInstance::call(PluginCall which, const std::string &request) {
    const CallWatch watch(plugin_->id(), which);
    const std::string doing = std::string("in ") + call_name(which);
    if (!process_) {
        const int restarts = plugin_->policy().restarts;
        if (failures_ > restarts) {
            throw PluginCallError(SBX_ERROR,
                                  who() + " failed " + std::to_string(failures_) +
                                      " times; not started again " + doing +
                                      " (plugin_host.restarts: " + std::to_string(restarts) + ")");
        }
        start();
    }
    std::string frame;
    frame.push_back(static_cast<char>(which));
    frame += request;
    if (!process_->send(wire::FrameType::call, frame)) {
        fail(doing, {Kind::died, {}, process_->kill_and_reap()}, which);
    }
    auto received = process_->receive(deadline_for(which, request));
    bool out_of_memory = false;
    if (received.kind == Kind::frame && received.frame.type == wire::FrameType::out_of_memory) {
        out_of_memory = true;  // the answer follows
        received = process_->receive(deadline_for(which, request));
    }
    if (received.kind != Kind::frame || received.frame.type != wire::FrameType::answer) {
        fail(doing, received, which);
    }
    int32_t status = SBX_ERROR;
    std::string answer;
    std::string error;
    if (!wire::decode_answer(received.frame.payload, status, answer, error)) {
        fail(doing, {Kind::garbage, {}, "wrote garbage on its channel (a malformed answer)"},
             which);
    }
    if (status != SBX_OK && status != SBX_CANCELLED && (out_of_memory || near_memory_limit())) {
        // It caught its own std::bad_alloc (or a NULL from malloc) and said no: the limit
        // is why, and a fresh process serves the next call.
        const std::string message = who() + " " + memory_text() + " " + doing + ": " + error;
        process_->kill_and_reap();
        process_.reset();
        ++failures_;
        throw PluginCallError(SBX_ERROR, message, CallFailure::memory);
    }
    if (status != SBX_OK) {
        throw PluginCallError(status, error);  // the child's message names the plugin already
    }
    return answer;
}

std::unique_ptr<Instance> make_isolated_instance(std::shared_ptr<const Plugin> plugin,
                                                 std::string config) {
    return std::make_unique<IsolatedInstance>(std::move(plugin), std::move(config));
}

}  // namespace sbx::plugins
