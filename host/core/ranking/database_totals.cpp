// Ranking totals from metrics.db.
#include "ranking/database_totals.hpp"

#include <memory>

#include "store/store.hpp"
#include "util/errors.hpp"

namespace sbx::ranking {
namespace {

using store::Connection;
using store::Statement;

// Opening migrates an older schema in place, as every command does. A file that is not a
// usable database is the user's argument to fix, hence InputError.
std::unique_ptr<store::Store> open_database(const std::filesystem::path &path) {
    try {
        return std::make_unique<store::Store>(path);
    } catch (const EnvironmentError &e) {
        throw InputError(path.string() + ": cannot read this metrics.db (" + e.what() +
                         "); pass a metrics.db written by sandbox-runner");
    }
}

// Bare columns beside MAX(): SQLite takes them from the row that holds the maximum, so
// `value` is the newest on-cell's. CROSS JOIN keeps cells as the outer loop, so each cell
// costs one lookup in metrics_by_cell instead of a scan of every run's metrics. A cell whose
// faults could not reach its target (not_applicable), or all of whose runs were errors of
// the setup, proved nothing and adds nothing.
constexpr const char *kRoiByScenario =
    "SELECT cells.workflow, presets.name, SUM(cells.roi), COUNT(*) FROM cells JOIN presets ON "
    "presets.id = cells.preset_id WHERE cells.flag = 'on' AND cells.not_applicable IS NULL AND "
    "cells.errored_runs < cells.runs GROUP BY cells.workflow, presets.name";
constexpr const char *kNewestSecurityScore =
    "SELECT cells.workflow, presets.name, metrics.value, MAX(cells.id) FROM cells CROSS JOIN "
    "metrics JOIN presets ON presets.id = cells.preset_id WHERE metrics.cell_id = cells.id AND "
    "cells.flag = 'on' AND metrics.name = 'security_score' GROUP BY cells.workflow, "
    "presets.name";

}  // namespace

ScenarioRois database_scenario_rois(const std::filesystem::path &path) {
    auto store = open_database(path);
    return store->locked([](Connection &connection) {
        ScenarioRois rois;
        Statement roi(connection.get(), kRoiByScenario);
        while (roi.step()) {
            auto &found = rois[{roi.column_text(0), roi.column_text(1)}];
            found.roi = roi.column_double(2);
            found.cells = roi.column_int(3);
        }
        Statement security(connection.get(), kNewestSecurityScore);
        while (security.step()) {
            rois[{security.column_text(0), security.column_text(1)}].security_score =
                security.column_double(2);
        }
        return rois;
    });
}

SynergyTotals database_synergy_totals(const std::filesystem::path &path, const std::string &metric,
                                      SynergySubjects subjects) {
    const std::string subject_filter =
        subjects == SynergySubjects::workflows ? " AND subject <> 'sections'" : "";
    auto store = open_database(path);
    return store->locked([&](Connection &connection) {
        SynergyTotals totals;
        Statement sums(connection.get(), "SELECT scenario, SUM(value) FROM synergy WHERE name = ?" +
                                             subject_filter + " GROUP BY scenario");
        sums.bind(1, metric);
        while (sums.step()) {
            totals.by_scenario[sums.column_text(0)] = sums.column_double(1);
        }
        Statement names(connection.get(),
                        "SELECT DISTINCT name FROM synergy WHERE name LIKE 'synergy\\_%' ESCAPE "
                        "'\\'" +
                            subject_filter);
        while (names.step()) {
            totals.metrics.insert(names.column_text(0));
        }
        return totals;
    });
}

}  // namespace sbx::ranking
