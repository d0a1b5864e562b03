#include "store/session_resume.hpp"

#include <spdlog/spdlog.h>

#include "util/errors.hpp"

namespace sbx::store {

void take_over_session(Store &store, int64_t session, const std::string &command,
                       const std::string &database) {
    const auto status = session_status(store, session);
    if (status && status->first == "running") {
        throw InputError(command + " --recover: session " + std::to_string(session) + " in " +
                         database +
                         " is still running (its host is alive, or on another machine); wait "
                         "for it to end or stop it, then recover");
    }
    reopen_session(store, session);
    if (const int dropped = discard_unfinished_runs(store, session); dropped > 0) {
        spdlog::info("session {}: {} runs of unfinished cells predate cell shares; they run again",
                     session, dropped);
    }
}

ResumableSession resume_latest_session(Store &store, const std::string &command,
                                       const std::string &database) {
    auto resumed = latest_unfinished_session(store, command);
    if (!resumed) {
        throw InputError(command + " --recover: " + database + " has no unfinished `" + command +
                         "` session; run it without --recover");
    }
    take_over_session(store, resumed->id, command, database);
    return *resumed;
}

}  // namespace sbx::store
