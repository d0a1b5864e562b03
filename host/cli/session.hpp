// The bookkeeping every recording command shares: which plugins a session used, and how
// it ended.
#pragma once

#include <boost/program_options/variables_map.hpp>
#include <initializer_list>
#include <string>
#include <vector>

#include "engine/cancelled.hpp"
#include "engine/plugin_set.hpp"
#include "store/matrix_records.hpp"
#include "store/plugin_failures.hpp"
#include "store/store.hpp"

namespace sbx::cli {

void record_plugins_used(store::Store &store, int64_t session, const engine::PluginSet &plugins);

// --recover takes these options from the interrupted session: exit 2 when one is given.
void refuse_with_recover(const std::string &command,
                         const boost::program_options::variables_map &given,
                         std::initializer_list<const char *> fixed);

// The collectors and predictors `session` disabled after a failed call.
std::vector<store::PluginFailure> disabled_plugins(store::Store &store, int64_t session);

// After a command's results: one line per disabled plugin on stderr (nothing when none),
// and the exit code: `code`, or 3 when `strict` (--strict-plugins, plugin_host.strict) and
// a plugin was disabled.
int finish_with_disabled_plugins(const std::vector<store::PluginFailure> &disabled, bool strict,
                                 int code);

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
    } catch (const engine::Cancelled &) {
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

}  // namespace sbx::cli
