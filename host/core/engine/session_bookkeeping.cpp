// Session bookkeeping shared by the recording commands.
#include "engine/session_bookkeeping.hpp"

#include <spdlog/spdlog.h>

#include <map>
#include <string>

#include "util/text_format.hpp"

namespace sbx::engine {
namespace {

// "a crash", "running out of memory": a failure_name() as the reminder's sentence says it.
std::string failure_words(const std::string &failure) {
    static const std::map<std::string, std::string> words = {{"crash", "a crash"},
                                                             {"hang", "a hang"},
                                                             {"garbage", "garbage on its channel"},
                                                             {"memory", "running out of memory"},
                                                             {"bad_answer", "a broken answer"},
                                                             {"status", "an error status"}};
    const auto found = words.find(failure);
    return found != words.end() ? found->second : failure;
}

}  // namespace

void record_plugins_used(store::Store &store, int64_t session, const PluginSet &plugins) {
    std::vector<store::PluginRecord> used;
    for (const auto &plugin : plugins.used()) {
        used.push_back(
            {plugin->id(), plugin->kind(), plugin->descriptor().version,
             std::to_string(plugin->abi().major) + "." + std::to_string(plugin->abi().minor),
             plugin->path().string()});
    }
    store.record_plugins(session, used);
}

std::vector<store::PluginFailure> disabled_plugins(store::Store &store, int64_t session) {
    return store.locked(
        [&](store::Connection &connection) { return store::plugin_failures(connection, session); });
}

void close_session(store::Store &store, int64_t session, const char *status) noexcept {
    try {
        store.finish_session(session, status);
    } catch (const std::exception &e) {
        spdlog::error("could not mark session {} as {}: {}", session, status, e.what());
    }
}

std::string disabled_plugin_reminder(const store::PluginFailure &disabled) {
    return util::format_text(
        "warning: plugin %s was disabled after %s in %s (%s): its %s are absent from there on; "
        "the warning above says how to replay it",
        disabled.id.c_str(), failure_words(disabled.failure).c_str(), disabled.call.c_str(),
        disabled.context.c_str(), disabled.kind == "predictor" ? "forecasts" : "metrics");
}

std::string strict_plugins_refusal(const std::vector<store::PluginFailure> &disabled) {
    std::string ids;
    for (const auto &entry : disabled) {
        ids += (ids.empty() ? "" : ", ") + entry.id;
    }
    return util::format_text(
        "sandbox-runner: %zu plugin%s disabled after a failed call (%s); exit 3 as "
        "--strict-plugins (plugin_host.strict) asks",
        disabled.size(), disabled.size() == 1 ? " was" : "s were", ids.c_str());
}

}  // namespace sbx::engine
