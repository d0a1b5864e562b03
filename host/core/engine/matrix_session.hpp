// The session a matrix command (run, run --all-workflows/--sections, run-scenarios,
// simulate-temporal-trajectory) records into: the interrupted one `--recover` resumes, or
// a new one holding what `--recover` will need back; either way with the plugins it uses.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "config/settings.hpp"
#include "engine/plugin_set.hpp"
#include "store/matrix_records.hpp"
#include "store/store.hpp"

namespace sbx::engine {

struct MatrixSession {
    int64_t resumed = 0;  // the session --recover resumes; 0: begin a new one
    std::string command;  // a new session's command line, as sessions list it
    int64_t seed = 0;     // a new session's seed
    // A new session's options (what --recover takes back); asked only for a new session.
    std::function<nlohmann::json()> options;
};

// With `recover`: the newest unfinished session of `command` in `store` (named `database`
// in messages), taken over (store/session_resume), and `seed` becomes its seed. Without:
// nullopt, and a random seed replaces a `seed` that was not given (negative).
std::optional<store::ResumableSession> resume_or_seed(store::Store &store,
                                                      const std::string &command,
                                                      const std::string &database, bool recover,
                                                      int64_t &seed);

// The session's id; the plugins of `plugins` are recorded as used by it.
int64_t open_matrix_session(store::Store &store, const PluginSet &plugins,
                            const config::Settings &settings, const MatrixSession &session);

}  // namespace sbx::engine
