// Reading back an unfinished session's cells and runs.
#include "store/session_progress.hpp"

namespace sbx::store {
namespace {

using nlohmann::json;

json forecast_of(Connection &connection, int64_t session_id, const RecordedCell &cell) {
    Statement query(connection.get(),
                    "SELECT method, value, lower, upper FROM predictions WHERE session_id = ? AND "
                    "subject = ? ORDER BY id DESC LIMIT 1");
    query.bind(1, session_id)
        .bind(2, "roi:" + cell.workflow + ":" + cell.preset_name + ":" + cell.flag);
    if (!query.step()) {
        return json();
    }
    const auto number = [&](int column) {
        return query.column_is_null(column) ? json() : json(query.column_double(column));
    };
    return {{"method", query.column_text(0)},
            {"value", number(1)},
            {"lower", number(2)},
            {"upper", number(3)}};
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
    Statement metrics(connection.get(), "SELECT name, value FROM metrics WHERE cell_id = ?");
    for (auto &cell : cells) {
        metrics.bind(1, cell.cell_id);
        while (metrics.step()) {
            cell.metrics[metrics.column_text(0)] = metrics.column_double(1);
        }
        metrics.reset();
        cell.forecast = forecast_of(connection, session_id, cell);
    }
    return cells;
}

std::vector<CommittedRun> committed_runs(Connection &connection, int64_t session_id) {
    std::vector<CommittedRun> runs;
    std::map<int64_t, size_t> index_of;
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
        index_of[run.run_id] = runs.size();
        runs.push_back(std::move(run));
    }
    Statement metrics(connection.get(),
                      "SELECT metrics.run_id, metrics.name, metrics.value FROM metrics JOIN runs "
                      "ON runs.id = metrics.run_id WHERE runs.session_id = ? AND "
                      "runs.cell_share IS NOT NULL");
    metrics.bind(1, session_id);
    while (metrics.step()) {
        const auto found = index_of.find(metrics.column_int(0));
        if (found != index_of.end()) {
            runs[found->second].metrics[metrics.column_text(1)] = metrics.column_double(2);
        }
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
