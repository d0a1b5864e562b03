// Beginning or resuming a matrix's session.
#include "engine/matrix_session.hpp"

#include "engine/session_bookkeeping.hpp"

namespace sbx::engine {

int64_t open_matrix_session(store::Store &store, const PluginSet &plugins,
                            const config::Settings &settings, const MatrixSession &session) {
    const int64_t id = session.resumed != 0 ? session.resumed
                                            : store.begin_session(session.command, settings.source,
                                                                  session.seed, session.options());
    record_plugins_used(store, id, plugins);
    return id;
}

}  // namespace sbx::engine
