#include "store/forecast_records.hpp"

namespace sbx::store {

std::map<std::string, std::vector<SeriesPoint>> cell_metric_series(Store &store,
                                                                   const std::string &workflow,
                                                                   const std::string &preset_name,
                                                                   const std::string &flag) {
    return store.locked([&](Connection &connection) {
        Statement query(connection.get(),
                        "SELECT metrics.name, metrics.value, cells.finished_at FROM cells "
                        "JOIN presets ON presets.id = cells.preset_id JOIN metrics ON "
                        "metrics.cell_id = cells.id WHERE cells.workflow = ? AND presets.name = "
                        "? AND cells.flag = ? ORDER BY cells.id");
        query.bind(1, workflow).bind(2, preset_name).bind(3, flag);
        std::map<std::string, std::vector<SeriesPoint>> series;
        while (query.step()) {
            series[query.column_text(0)].push_back({query.column_double(1), query.column_text(2)});
        }
        return series;
    });
}

std::map<std::string, std::vector<SeriesPoint>> synergy_series(Store &store,
                                                               const std::string &subject,
                                                               const std::string &scenario) {
    return store.locked([&](Connection &connection) {
        Statement query(connection.get(),
                        "SELECT synergy.name, synergy.value, sessions.started_at FROM synergy "
                        "JOIN sessions ON sessions.id = synergy.session_id WHERE "
                        "synergy.subject = ? AND synergy.scenario = ? ORDER BY sessions.id");
        query.bind(1, subject).bind(2, scenario);
        std::map<std::string, std::vector<SeriesPoint>> series;
        while (query.step()) {
            series[query.column_text(0)].push_back({query.column_double(1), query.column_text(2)});
        }
        return series;
    });
}

void record_forecasts(Store &store, const std::string &subject, const std::vector<double> &series,
                      const std::vector<PredictionRecord> &forecasts) {
    const auto points = static_cast<int64_t>(series.size());
    store.locked([&](Connection &connection) {
        Transaction transaction(connection);
        std::vector<std::pair<int64_t, int64_t>> unpaired;  // id, points
        {
            Statement query(connection.get(),
                            "SELECT id, points FROM predictions WHERE subject = ? AND actual IS "
                            "NULL AND points >= 0 AND points < ?");
            query.bind(1, subject).bind(2, points);
            while (query.step()) {
                unpaired.emplace_back(query.column_int(0), query.column_int(1));
            }
        }
        Statement pair(connection.get(), "UPDATE predictions SET actual = ? WHERE id = ?");
        for (const auto &[id, made_from] : unpaired) {
            pair.bind(1, series[static_cast<size_t>(made_from)]).bind(2, id).run();
        }
        Statement replace(connection.get(),
                          "DELETE FROM predictions WHERE subject = ? AND method = ? AND points = ? "
                          "AND actual IS NULL");
        Statement insert(connection.get(),
                         "INSERT INTO predictions(session_id, subject, method, value, lower, "
                         "upper, points, created_at, chosen, shown) VALUES(?, ?, ?, ?, ?, ?, ?, "
                         "?, ?, ?)");
        const std::string now = utc_now();
        for (const auto &forecast : forecasts) {
            replace.bind(1, subject).bind(2, forecast.method).bind(3, points).run();
            insert.bind(1, forecast.session_id).bind(2, subject).bind(3, forecast.method);
            int column = 4;
            for (const auto &number : {forecast.value, forecast.lower, forecast.upper}) {
                if (number) {
                    insert.bind(column, *number);
                } else {
                    insert.bind_null(column);
                }
                ++column;
            }
            insert.bind(7, points).bind(8, now);
            if (forecast.chosen.empty()) {
                insert.bind_null(9);
            } else {
                insert.bind(9, forecast.chosen);
            }
            insert.bind(10, int64_t{forecast.shown ? 1 : 0}).run();
        }
        transaction.commit();
    });
}

std::vector<ScoredForecast> scored_forecasts(Store &store, const std::string &subject_prefix) {
    return store.locked([&](Connection &connection) {
        // substr, not LIKE: subjects hold `_`, which LIKE reads as a wildcard.
        Statement query(connection.get(),
                        "SELECT subject, method, chosen, value, lower, upper, actual, points, "
                        "shown FROM predictions WHERE actual IS NOT NULL AND value IS NOT NULL "
                        "AND substr(subject, 1, length(?1)) = ?1 ORDER BY id");
        query.bind(1, subject_prefix);
        std::vector<ScoredForecast> scored;
        while (query.step()) {
            ScoredForecast forecast;
            forecast.subject = query.column_text(0);
            forecast.predictor = query.column_text(1);
            forecast.chosen = query.column_is_null(2) ? "" : query.column_text(2);
            forecast.value = query.column_double(3);
            if (!query.column_is_null(4)) {
                forecast.lower = query.column_double(4);
            }
            if (!query.column_is_null(5)) {
                forecast.upper = query.column_double(5);
            }
            forecast.actual = query.column_double(6);
            forecast.points = static_cast<int>(query.column_int(7));
            forecast.shown = query.column_int(8) != 0;
            scored.push_back(std::move(forecast));
        }
        return scored;
    });
}

std::vector<ScoredForecast> scored_forecasts(const std::filesystem::path &database,
                                             const std::string &subject_prefix) {
    if (!std::filesystem::exists(database)) {
        return {};
    }
    Store store(database);
    return scored_forecasts(store, subject_prefix);
}

}  // namespace sbx::store
