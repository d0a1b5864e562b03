#include "engine/optional_plugins.hpp"

#include <spdlog/spdlog.h>

#include <filesystem>

#include "plugins/failure_advice.hpp"
#include "store/plugin_failures.hpp"
#include "util/atomic_file.hpp"
#include "util/shell_word.hpp"

namespace sbx::engine {
namespace {

namespace fs = std::filesystem;

// <data_dir>/plugin-failures/<id>-<n>.json, n the first number free: requests of earlier
// commands stay for their own replay lines. "" when it cannot be written (the warning
// still goes out).
std::string save_request(const fs::path &data_dir, const FailedCall &failed) {
    const fs::path folder = data_dir / "plugin-failures";
    std::error_code ec;
    fs::create_directories(folder, ec);
    for (int n = 1; n < 100000; ++n) {
        const fs::path file = folder / (failed.id + "-" + std::to_string(n) + ".json");
        if (fs::exists(file, ec)) {
            continue;
        }
        try {
            write_file_atomically(file, failed.request + "\n");
            return fs::absolute(file, ec).lexically_normal().string();
        } catch (const std::exception &e) {
            spdlog::debug("could not save the request of {}: {}", failed.id, e.what());
            return "";
        }
    }
    return "";
}

std::string replay_line(const FailedCall &failed, const std::string &request_file) {
    if (request_file.empty()) {
        return "";
    }
    std::string line = "sandbox-runner plugins call " + shell_word(failed.path) + " --call " +
                       plugins::call_name(failed.call) + " --request " + shell_word(request_file);
    if (!failed.config.empty() && failed.config != "{}") {
        line += " --plugin-config " + shell_quote(failed.config);
    }
    return line;
}

}  // namespace

void disable_failed_plugin(PluginSet &plugins, store::Store &store, int64_t session_id,
                           const FailedCall &failed, std::optional<int64_t> run_id) {
    if (!plugins.disabled().disable(failed.id)) {
        return;
    }
    store::PluginFailure entry;
    entry.id = failed.id;
    entry.kind = failed.kind;
    entry.path = failed.path;
    entry.call = plugins::call_name(failed.call);
    entry.failure = plugins::failure_name(failed.failure);
    entry.reason = failed.reason;
    entry.context =
        (run_id ? "run " + std::to_string(*run_id) + " (" + failed.context + ")" : failed.context);
    entry.run_id = run_id;
    entry.request_file = save_request(fs::path(store.connection().path()).parent_path(), failed);
    entry.replay = replay_line(failed, entry.request_file);
    entry.advice = plugins::failure_advice(failed.failure, failed.call, failed.id, entry.replay);
    const char *lost = failed.kind == "predictor" ? "forecasts" : "metrics";
    spdlog::warn(
        "{}\n  disabled for the rest of this command: its {} are absent from here on; the runs "
        "go on\n  where: {}\n  request: {}\n  replay: {}\n  next: {}",
        entry.reason, lost, entry.context,
        entry.request_file.empty() ? std::string("(could not be saved)") : entry.request_file,
        entry.replay.empty() ? std::string("-") : entry.replay, entry.advice);
    store::record_plugin_failure(store, session_id, entry);
}

}  // namespace sbx::engine
