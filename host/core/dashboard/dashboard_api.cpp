#include "dashboard/dashboard_api.hpp"

#include "dashboard/live_counters.hpp"
#include "store/read_only_database.hpp"

namespace sbx::dashboard {

using nlohmann::json;

json roi_json(const std::filesystem::path &data_dir) {
    json workflows = json::object();
    const auto db = store::open_read_only(data_dir / "metrics.db");
    if (!db) {
        return {{"workflows", workflows}};
    }
    store::Statement query(db->get(),
                           "SELECT workflow, scenario, session_id, roi_on, roi_off, roi_delta, "
                           "raroi_delta FROM scenario_scores ORDER BY session_id, position");
    while (query.step()) {
        json &series = workflows[query.column_text(0)][query.column_text(1)];
        if (series.is_null()) {
            series = {{"session", json::array()},
                      {"roi_on", json::array()},
                      {"roi_off", json::array()},
                      {"roi_delta", json::array()},
                      {"raroi_delta", json::array()}};
        }
        series["session"].push_back(query.column_int(2));
        series["roi_on"].push_back(query.column_double(3));
        series["roi_off"].push_back(query.column_double(4));
        series["roi_delta"].push_back(query.column_double(5));
        series["raroi_delta"].push_back(query.column_double(6));
    }
    return {{"workflows", workflows}};
}

json metric_json(const std::filesystem::path &data_dir, const std::string &metric) {
    json series = json::object();
    const auto db = store::open_read_only(data_dir / "metrics.db");
    if (db) {
        // The subjects of `metric` start with "METRIC:"; the index on (subject, points)
        // serves the range.
        store::Statement query(db->get(),
                               "SELECT subject, points, value, actual, lower, upper, method FROM "
                               "predictions WHERE subject >= ? AND subject < ? AND shown = 1 "
                               "ORDER BY subject, points, id");
        query.bind(1, metric + ":").bind(2, metric + ";");
        while (query.step()) {
            json &one = series[query.column_text(0)];
            if (one.is_null()) {
                one = {{"points", json::array()}, {"predicted", json::array()},
                       {"actual", json::array()}, {"lower", json::array()},
                       {"upper", json::array()},  {"method", json::array()}};
            }
            const auto optional = [&](int column) {
                return query.column_is_null(column) ? json() : json(query.column_double(column));
            };
            one["points"].push_back(query.column_int(1));
            one["predicted"].push_back(optional(2));
            one["actual"].push_back(optional(3));
            one["lower"].push_back(optional(4));
            one["upper"].push_back(optional(5));
            one["method"].push_back(query.column_text(6));
        }
    }
    return {{"metric", metric}, {"series", series}};
}

json sessions_json(const std::filesystem::path &data_dir) {
    json sessions = json::array();
    const auto db = store::open_read_only(data_dir / "metrics.db");
    if (db) {
        store::Statement query(db->get(),
                               "SELECT s.id, s.command, s.status, s.started_at, s.finished_at, "
                               "(SELECT COUNT(*) FROM runs r WHERE r.session_id = s.id), (SELECT "
                               "COUNT(*) FROM runs r WHERE r.session_id = s.id AND r.passed = 0) "
                               "FROM sessions s ORDER BY s.id DESC LIMIT 1000");
        while (query.step()) {
            sessions.push_back(
                {{"id", query.column_int(0)},
                 {"command", query.column_text(1)},
                 {"status", query.column_text(2)},
                 {"started_at", query.column_text(3)},
                 {"finished_at", query.column_is_null(4) ? json() : json(query.column_text(4))},
                 {"runs", query.column_int(5)},
                 {"failed", query.column_int(6)}});
        }
    }
    return {{"sessions", sessions}};
}

json progress_json(const std::filesystem::path &data_dir) {
    const auto live = live_snapshot();
    json running = json::array();
    if (const auto db = store::open_read_only(data_dir / "metrics.db")) {
        store::Statement query(db->get(),
                               "SELECT id, command, (SELECT COUNT(*) FROM runs r WHERE "
                               "r.session_id = s.id) FROM sessions s WHERE status = 'running'");
        while (query.step()) {
            running.push_back({{"id", query.column_int(0)},
                               {"command", query.column_text(1)},
                               {"runs", query.column_int(2)}});
        }
    }
    return {{"live",
             {{"active", live.active},
              {"planned", live.planned},
              {"done", live.done},
              {"failed", live.failed},
              {"elapsed_s", live.elapsed_s},
              {"current", live.current}}},
            {"running_sessions", running}};
}

}  // namespace sbx::dashboard
