// Taking over an interrupted session (--recover), one way for every command: a session is
// taken over only when no live host is filling it, and the runs an older host left without
// a cell share are dropped so they run again (docs/user-guide.md "Recovering an interrupted
// matrix").
#pragma once

#include <cstdint>
#include <string>

#include "store/matrix_records.hpp"
#include "store/store.hpp"

namespace sbx::store {

// Reopens `session` for this host. Throws InputError naming `database` while the session is
// still running: opening the store marked the sessions of dead hosts on this machine
// crashed, so one still running belongs to a live host (or another machine's), and two
// hosts must not fill one session.
void take_over_session(Store &store, int64_t session, const std::string &command,
                       const std::string &database);

// The newest unfinished session of `command`, taken over. Throws InputError when there is
// none.
ResumableSession resume_latest_session(Store &store, const std::string &command,
                                       const std::string &database);

}  // namespace sbx::store
