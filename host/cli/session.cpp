// Session bookkeeping shared by the recording commands.
#include "session.hpp"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <map>

#include "util/errors.hpp"

namespace sbx::cli {

void record_plugins_used(store::Store &store, int64_t session, const engine::PluginSet &plugins) {
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

int finish_with_disabled_plugins(const std::vector<store::PluginFailure> &disabled, bool strict,
                                 int code) {
    // The warning at the failure said it all; after the results, a reminder that the
    // numbers above lack this plugin's.
    for (const auto &entry : disabled) {
        std::fprintf(stderr,
                     "warning: plugin %s was disabled after %s in %s (%s): its %s are "
                     "absent from there on; the warning above says how to replay it\n",
                     entry.id.c_str(), failure_words(entry.failure).c_str(), entry.call.c_str(),
                     entry.context.c_str(), entry.kind == "predictor" ? "forecasts" : "metrics");
    }
    if (!strict || disabled.empty()) {
        return code;
    }
    std::string ids;
    for (const auto &entry : disabled) {
        ids += (ids.empty() ? "" : ", ") + entry.id;
    }
    std::fprintf(stderr,
                 "sandbox-runner: %zu plugin%s disabled after a failed call (%s); exit 3 as "
                 "--strict-plugins (plugin_host.strict) asks\n",
                 disabled.size(), disabled.size() == 1 ? " was" : "s were", ids.c_str());
    return kExitEnvironment;
}

void refuse_with_recover(const std::string &command,
                         const boost::program_options::variables_map &given,
                         std::initializer_list<const char *> fixed) {
    for (const char *option : fixed) {
        if (given.count(option) != 0 && !given[option].defaulted()) {
            throw InputError(command + ": --recover takes --" + option +
                             " from the interrupted session; leave it out");
        }
    }
}

void close_session(store::Store &store, int64_t session, const char *status) noexcept {
    try {
        store.finish_session(session, status);
    } catch (const std::exception &e) {
        spdlog::error("could not mark session {} as {}: {}", session, status, e.what());
    }
}

}  // namespace sbx::cli
