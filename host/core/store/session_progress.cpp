// Reading back an unfinished session's cells and runs: one query per kind of row, never one
// per cell or run.
#include "store/session_progress.hpp"

namespace sbx::store {
namespace {

using nlohmann::json;
using MetricsByOwner = std::map<int64_t, std::map<std::string, double>>;

// The metrics of the session's cells or runs, by their id: `owner` is "cell_id" or "run_id",
// `owners` the query of the session's ids of that kind (its ?1 is the session).
MetricsByOwner metrics_by_owner(Connection &connection, int64_t session_id,
                                const std::string &owner, const std::string &owners) {
    MetricsByOwner metrics;
    Statement query(connection.get(), "SELECT " + owner + ", name, value FROM metrics WHERE " +
                                          owner + " IN (" + owners + ")");
    query.bind(1, session_id);
    while (query.step()) {
        metrics[query.column_int(0)][query.column_text(1)] = query.column_double(2);
    }
    return metrics;
}

// The newest forecast recorded for `cell` in the session, through the prepared `query`.
json forecast_of(Statement &query, int64_t session_id, const RecordedCell &cell) {
    query.bind(1, session_id)
        .bind(2, "roi:" + cell.workflow + ":" + cell.preset_name + ":" + cell.flag);
    json forecast;
    if (query.step()) {
        const auto number = [&](int column) {
            return query.column_is_null(column) ? json() : json(query.column_double(column));
        };
        forecast = {{"method", query.column_text(0)},
                    {"value", number(1)},
                    {"lower", number(2)},
                    {"upper", number(3)}};
    }
    query.reset();
    return forecast;
}

std::vector<RecordedCell> recorded_cells(Connection &connection, int64_t session_id) {
    std::vector<RecordedCell> cells;
    Statement query(connection.get(),
                    "SELECT cells.id, cells.workflow, cells.preset_id, presets.name, cells.flag, "
                    "cells.runs, cells.passed, cells.roi, coalesce(cells.not_applicable, '') "
                    "FROM cells JOIN presets ON presets.id = cells.preset_id WHERE "
                    "cells.session_id = ? ORDER BY cells.id");
    query.bind(1, session_id);
    while (query.step()) {
        RecordedCell cell;
        cell.cell_id = query.column_int(0);
        cell.workflow = query.column_text(1);
        cell.preset_id = query.column_int(2);
        cell.preset_name = query.column_text(3);
        cell.flag = query.column_text(4);
        cell.runs = static_cast<int>(query.column_int(5));
        cell.passed = static_cast<int>(query.column_int(6));
        cell.roi = query.column_double(7);
        cell.not_applicable = query.column_text(8);
        cells.push_back(std::move(cell));
    }
    auto metrics = metrics_by_owner(connection, session_id, "cell_id",
                                    "SELECT id FROM cells WHERE session_id = ?1");
    Statement forecasts(connection.get(),
                        "SELECT method, value, lower, upper FROM predictions WHERE session_id = ? "
                        "AND subject = ? AND shown = 1 ORDER BY id DESC LIMIT 1");
    for (auto &cell : cells) {
        cell.metrics = std::move(metrics[cell.cell_id]);
        cell.forecast = forecast_of(forecasts, session_id, cell);
    }
    return cells;
}

std::vector<CommittedRun> committed_runs(Connection &connection, int64_t session_id) {
    std::vector<CommittedRun> runs;
    Statement query(connection.get(),
                    "SELECT id, workflow, preset_id, flag, repetition, passed, cell_share FROM "
                    "runs WHERE session_id = ? AND cell_share IS NOT NULL ORDER BY id");
    query.bind(1, session_id);
    while (query.step()) {
        CommittedRun run;
        run.run_id = query.column_int(0);
        run.workflow = query.column_text(1);
        run.preset_id = query.column_int(2);
        run.flag = query.column_text(3);
        run.repetition = static_cast<int>(query.column_int(4));
        run.passed = query.column_int(5) != 0;
        run.cell_share = query.column_text(6);
        runs.push_back(std::move(run));
    }
    auto metrics =
        metrics_by_owner(connection, session_id, "run_id",
                         "SELECT id FROM runs WHERE session_id = ?1 AND cell_share IS NOT NULL");
    for (auto &run : runs) {
        run.metrics = std::move(metrics[run.run_id]);
    }
    return runs;
}

}  // namespace

SessionProgress session_progress(Store &store, int64_t session_id) {
    return store.locked([&](Connection &connection) {
        return SessionProgress{recorded_cells(connection, session_id),
                               committed_runs(connection, session_id)};
    });
}

}  // namespace sbx::store
