// Recording and checking the host process of running sessions.
#include "store/session_owner.hpp"

#include <unistd.h>

#include <spdlog/spdlog.h>
#include <sbx/process_identity.hpp>

#include <sstream>
#include <utility>
#include <vector>

#include "store/store.hpp"

namespace sbx::store {
namespace {

std::string hostname() {
    char name[256] = {};
    if (::gethostname(name, sizeof(name) - 1) != 0) {
        return "?";
    }
    return name;
}

int64_t count_of(Connection &connection, const char *table, int64_t session) {
    Statement query(connection.get(),
                    std::string("SELECT count(*) FROM ") + table + " WHERE session_id = ?");
    query.bind(1, session);
    query.step();
    return query.column_int(0);
}

}  // namespace

std::string this_host_process() {
    return hostname() + " " + ProcessIdentity::current().text();
}

std::vector<int64_t> mark_crashed_sessions(Connection &connection) {
    std::vector<std::pair<int64_t, std::string>> orphans;
    {
        Statement query(connection.get(),
                        "SELECT id, host_process FROM sessions WHERE status = 'running' AND "
                        "host_process IS NOT NULL");
        const std::string here = hostname();
        while (query.step()) {
            const std::string owner = query.column_text(1);
            std::istringstream fields(owner);
            std::string machine;
            fields >> machine;
            std::string identity;
            std::getline(fields >> std::ws, identity);
            if (machine == here && !ProcessIdentity::parse(identity).alive()) {
                orphans.emplace_back(query.column_int(0), owner);
            }
        }
    }
    for (const auto &[session, owner] : orphans) {
        const int64_t runs = count_of(connection, "runs", session);
        const int64_t cells = count_of(connection, "cells", session);
        std::istringstream fields(owner);
        std::string machine;
        std::string pid;  // shown, not computed with: kept as written
        fields >> machine >> pid;
        const std::string note = "its host (pid " + pid + ") ended without closing it, after " +
                                 std::to_string(runs) + " committed runs and " +
                                 std::to_string(cells) + " cells";
        Statement update(connection.get(),
                         "UPDATE sessions SET status = 'crashed', finished_at = ?1, failed_at = "
                         "?1, ended_note = ?2 WHERE id = ?3 AND status = 'running'");
        update.bind(1, utc_now()).bind(2, note).bind(3, session).run();
        spdlog::warn("session {} marked crashed: {}", session, note);
    }
    std::vector<int64_t> marked;
    marked.reserve(orphans.size());
    for (const auto &orphan : orphans) {
        marked.push_back(orphan.first);
    }
    return marked;
}

}  // namespace sbx::store
