#include "plugins/call_watch.hpp"

#include <map>
#include <mutex>

namespace sbx::plugins {
namespace {

using Clock = std::chrono::steady_clock;

struct InFlight {
    std::string plugin_id;
    PluginCall call;
    Clock::time_point since;
};

std::mutex g_mutex;
uint64_t g_next_token = 1;
std::map<uint64_t, InFlight> g_in_flight;  // by token: oldest first

}  // namespace

CallWatch::CallWatch(const std::string &plugin_id, PluginCall call) {
    if (call == PluginCall::run) {
        return;
    }
    const std::lock_guard<std::mutex> lock(g_mutex);
    token_ = g_next_token++;
    g_in_flight.emplace(token_, InFlight{plugin_id, call, Clock::now()});
}

CallWatch::~CallWatch() {
    if (token_ == 0) {
        return;
    }
    const std::lock_guard<std::mutex> lock(g_mutex);
    g_in_flight.erase(token_);
}

std::optional<WaitedCall> longest_call_in_flight() {
    const std::lock_guard<std::mutex> lock(g_mutex);
    if (g_in_flight.empty()) {
        return std::nullopt;
    }
    const auto &oldest = g_in_flight.begin()->second;  // tokens grow with time
    return WaitedCall{
        oldest.plugin_id, call_name(oldest.call),
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - oldest.since)};
}

}  // namespace sbx::plugins
