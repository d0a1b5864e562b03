// Session bookkeeping shared by the recording commands.
#include "session.hpp"

#include <spdlog/spdlog.h>

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

void close_session(store::Store &store, int64_t session, const char *status) noexcept {
    try {
        store.finish_session(session, status);
    } catch (const std::exception &e) {
        spdlog::error("could not mark session {} as {}: {}", session, status, e.what());
    }
}

}  // namespace sbx::cli
