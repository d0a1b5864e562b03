// The bookkeeping every recording command shares: which plugins a session used, which it
// disabled, and how it ended (finished, interrupted, failed), so a killed or failed command
// leaves a session that says so.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/cancelled.hpp"
#include "engine/plugin_set.hpp"
#include "plugins/plugin.hpp"
#include "store/plugin_failures.hpp"
#include "store/store.hpp"

namespace sbx::engine {

void record_plugins_used(store::Store &store, int64_t session, const PluginSet &plugins);

// The collectors and predictors `session` disabled after a failed call.
std::vector<store::PluginFailure> disabled_plugins(store::Store &store, int64_t session);

// After a command's results, the reminder that the numbers above lack a disabled plugin's
// (the warning at the failure said the rest): one line, without its newline.
std::string disabled_plugin_reminder(const store::PluginFailure &disabled);
// Why --strict-plugins (plugin_host.strict) makes the command exit 3: the plugins it
// disabled, named; one line, without its newline.
std::string strict_plugins_refusal(const std::vector<store::PluginFailure> &disabled);

// Marks how a session ended without hiding the error that ended it: a failure to write
// the mark (the database is the problem, say) is logged, and the original error goes on.
void close_session(store::Store &store, int64_t session, const char *status) noexcept;

// Runs `work`, then marks the session finished; on Cancelled (or a plugin call stopped by
// the signal) marks it interrupted, on any other error failed, and rethrows.
template <class Work>
auto within_session(store::Store &store, int64_t session, Work &&work) {
    try {
        auto result = work();
        store.finish_session(session, "finished");
        return result;
    } catch (const Cancelled &) {
        close_session(store, session, "interrupted");
        throw;
    } catch (const plugins::PluginCallError &e) {
        // A plugin call the signal stopped (an isolated plugin's, killed after its grace).
        close_session(store, session, e.status() == SBX_CANCELLED ? "interrupted" : "failed");
        throw;
    } catch (...) {
        close_session(store, session, "failed");
        throw;
    }
}

}  // namespace sbx::engine
