// The sbx_host table every plugin receives: logging into spdlog, cancellation, a clock.
#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>

#include "plugins/plugin.hpp"

namespace sbx::plugins {
namespace {

std::atomic<bool> g_cancelled{false};

void SBX_CALL log_from_plugin(void *, sbx_log_level level, const char *plugin_id,
                              const char *message) {
    static constexpr spdlog::level::level_enum kLevels[] = {
        spdlog::level::trace, spdlog::level::debug, spdlog::level::info, spdlog::level::warn,
        spdlog::level::err};
    const auto index = level < SBX_LOG_TRACE   ? SBX_LOG_TRACE
                       : level > SBX_LOG_ERROR ? SBX_LOG_ERROR
                                               : level;
    spdlog::log(kLevels[index], "[{}] {}", plugin_id ? plugin_id : "?", message ? message : "");
}

int32_t SBX_CALL is_cancelled(void *) {
    return g_cancelled.load() ? 1 : 0;
}

uint64_t SBX_CALL now_ns(void *) {
    return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     std::chrono::steady_clock::now().time_since_epoch())
                                     .count());
}

// No optional services exist yet in ABI 1.0; the lookup is there so adding one later is
// not an ABI change.
const void *SBX_CALL get_service(void *, const char *) {
    return nullptr;
}

}  // namespace

const sbx_host *host_services() {
    static const sbx_host host = [] {
        // spdlog makes its registry on first use. Made here, on the thread that loads the
        // plugins, it exists before any of them logs from a worker thread; made by the first
        // log, two workers could race to it (a TSan report in spdlog).
        (void)spdlog::default_logger_raw();
        return sbx_host{sizeof(sbx_host), {SBX_ABI_MAJOR, SBX_ABI_MINOR},
                        nullptr,          &log_from_plugin,
                        &is_cancelled,    &now_ns,
                        &get_service};
    }();
    return &host;
}

void request_cancel() noexcept {
    g_cancelled.store(true);
}
bool cancel_requested() noexcept {
    return g_cancelled.load();
}

}  // namespace sbx::plugins
