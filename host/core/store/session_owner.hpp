// Who owns a running session: the host process that began (or recovered) it, recorded as
// "<hostname> <pid> <start time>" so that the next command opening the data dir can tell a
// session whose host crashed from one a live host is still writing.
#pragma once

#include <string>
#include <vector>

#include "store/sqlite_handle.hpp"

namespace sbx::store {

// This process, as sessions.host_process records it.
std::string this_host_process();

// Marks `crashed` every `running` session whose host process, on this machine, is gone:
// finished_at is now and ended_note says which process it was and how far the session got
// (its committed runs and cells). Sessions of other machines (a shared data dir) are left
// as they are: nothing here can tell whether their host lives. Logs one warning per session
// and returns the sessions it marked.
std::vector<int64_t> mark_crashed_sessions(Connection &connection);

}  // namespace sbx::store
