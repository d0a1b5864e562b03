// Metrics collectors and predictors are optional: they add numbers to runs that are decided
// without them. One that fails a call (crashes, hangs, writes garbage, runs out of memory,
// answers outside its contract or with an error status) is disabled for the rest of the
// command with one warning: the runs go on and are recorded, its numbers are absent, and the
// report says why. Executors, stubs and injectors decide the runs themselves: their failures
// stay the run's error.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/plugin_set.hpp"
#include "plugins/answer_contract.hpp"
#include "plugins/plugin.hpp"
#include "store/store.hpp"

namespace sbx::engine {

// One failed call, described before the run it belongs to has its id.
struct FailedCall {
    std::string id;
    std::string kind;
    std::string path;
    std::string config;  // the instance's configuration (JSON text)
    plugins::PluginCall call = plugins::PluginCall::collect;
    plugins::CallFailure failure = plugins::CallFailure::status;
    std::string reason;
    std::string request;
    std::string context;  // "workflow wf, scenario normal, on, repetition 0, phase run"
};

// Runs `work` (a call of `instance` and the reading of its answer). On a failure that is the
// plugin's, returns it; a cancellation and `plugin_host.on_crash: stop` go on up.
template <class Work>
std::optional<FailedCall> call_optional(const plugins::Instance &instance, plugins::PluginCall call,
                                        const std::string &request, const std::string &context,
                                        Work &&work) {
    FailedCall failed;
    try {
        work();
        return std::nullopt;
    } catch (const plugins::PluginCallError &e) {
        if (e.status() == SBX_CANCELLED) {
            throw;
        }
        failed.failure = e.failure();
        failed.reason = e.what();
    } catch (const plugins::BadAnswerError &e) {
        failed.failure = plugins::CallFailure::bad_answer;
        failed.reason = e.what();
    }
    const auto &plugin = instance.plugin();
    failed.id = plugin.id();
    failed.kind = plugin.kind();
    failed.path = plugin.path().string();
    failed.config = instance.config_text();
    failed.call = call;
    failed.request = request;
    failed.context = context;
    return failed;
}

// Disables the plugin of `failed` for the rest of the command. The first failure of a plugin
// also saves the request in <data_dir>/plugin-failures/<id>-<n>.json, warns once (the plugin,
// where, the saved request, the `plugins call` line that replays it, and what to do next) and
// records it in the session; later ones (another worker's) are dropped.
void disable_failed_plugin(PluginSet &plugins, store::Store &store, int64_t session_id,
                           const FailedCall &failed, std::optional<int64_t> run_id);

}  // namespace sbx::engine
