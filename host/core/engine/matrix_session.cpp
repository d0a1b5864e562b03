// Beginning or resuming a matrix's session.
#include "engine/matrix_session.hpp"

#include "engine/command_seed.hpp"
#include "engine/session_bookkeeping.hpp"
#include "store/session_resume.hpp"

namespace sbx::engine {

std::optional<store::ResumableSession> resume_or_seed(store::Store &store,
                                                      const std::string &command,
                                                      const std::string &database, bool recover,
                                                      int64_t &seed) {
    if (recover) {
        auto resumed = store::resume_latest_session(store, command, database);
        seed = resumed.seed.value_or(0);
        return resumed;
    }
    if (seed < 0) {
        seed = random_seed();
    }
    return std::nullopt;
}

int64_t open_matrix_session(store::Store &store, const PluginSet &plugins,
                            const config::Settings &settings, const MatrixSession &session) {
    const int64_t id = session.resumed != 0 ? session.resumed
                                            : store.begin_session(session.command, settings.source,
                                                                  session.seed, session.options());
    record_plugins_used(store, id, plugins);
    return id;
}

}  // namespace sbx::engine
