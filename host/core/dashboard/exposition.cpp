#include "dashboard/exposition.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "dashboard/live_counters.hpp"
#include "reports/markup_escape.hpp"
#include "store/read_only_database.hpp"

namespace sbx::dashboard {
namespace {

struct Family {
    std::string help;
    std::string type;                                     // gauge, counter
    std::vector<std::pair<std::string, double>> samples;  // {labels, value}
};

std::string number(double value) {
    if (std::isnan(value)) {
        return "NaN";
    }
    if (std::isinf(value)) {
        return value > 0 ? "+Inf" : "-Inf";
    }
    char text[40];
    std::snprintf(text, sizeof(text), "%.17g", value);
    return text;
}

// Entries of a state file that maps ids to records (active containers, guests' overlays).
double entries_in(const std::filesystem::path &file) {
    std::ifstream in(file);
    const auto parsed = nlohmann::json::parse(in, nullptr, false);
    return parsed.is_object() ? static_cast<double>(parsed.size()) : 0.0;
}

using Families = std::map<std::string, Family>;

void add(Families &families, const std::string &name, const std::string &type,
         const std::string &help, const std::string &labels, double value) {
    auto &family = families[name];
    family.type = type;
    family.help = help;
    family.samples.emplace_back(labels, value);
}

void scenario_samples(store::Connection &db, Families &families) {
    // The newest scored session of each workflow: what the workflow's scores are now.
    store::Statement query(
        db.get(),
        "SELECT s.workflow, s.scenario, s.roi_on, s.roi_off, s.roi_delta, s.raroi_delta, "
        "s.failed, s.worst FROM scenario_scores s JOIN (SELECT workflow, MAX(session_id) AS "
        "session FROM scenario_scores GROUP BY workflow) latest ON latest.workflow = s.workflow "
        "AND latest.session = s.session_id ORDER BY s.workflow, s.position");
    while (query.step()) {
        const std::string labels = "workflow=\"" + label_value(query.column_text(0)) +
                                   "\",scenario=\"" + label_value(query.column_text(1)) + "\"";
        add(families, "sandbox_runner_scenario_roi", "gauge",
            "ROI of the newest scenario matrix, with the workflow on and off",
            labels + ",flag=\"on\"", query.column_double(2));
        families["sandbox_runner_scenario_roi"].samples.emplace_back(labels + ",flag=\"off\"",
                                                                     query.column_double(3));
        add(families, "sandbox_runner_scenario_roi_delta", "gauge",
            "ROI on minus ROI off of the newest scenario matrix", labels, query.column_double(4));
        add(families, "sandbox_runner_scenario_raroi_delta", "gauge",
            "risk-adjusted ROI on minus off of the newest scenario matrix", labels,
            query.column_double(5));
        add(families, "sandbox_runner_scenario_failed", "gauge",
            "1 when the scenario failed in the newest scenario matrix", labels,
            static_cast<double>(query.column_int(6)));
        add(families, "sandbox_runner_scenario_worst", "gauge",
            "1 for the worst scenario of the newest scenario matrix", labels,
            static_cast<double>(query.column_int(7)));
    }
}

void synergy_samples(store::Connection &db, Families &families) {
    store::Statement query(db.get(),
                           "SELECT subject, scenario, name, value FROM synergy WHERE session_id "
                           "= (SELECT MAX(session_id) FROM synergy)");
    while (query.step()) {
        add(families, "sandbox_runner_synergy", "gauge",
            "synergy of the newest simulation: all together minus the mean of each alone",
            "subject=\"" + label_value(query.column_text(0)) + "\",scenario=\"" +
                label_value(query.column_text(1)) + "\",name=\"" +
                label_value(query.column_text(2)) + "\"",
            query.column_double(3));
    }
}

void history_samples(store::Connection &db, Families &families) {
    store::Statement cleanup(db.get(), "SELECT name, value FROM cleanup_counters ORDER BY name");
    while (cleanup.step()) {
        add(families, "sandbox_runner_cleanup_total", "counter",
            "what executors and injectors report having cleaned up, by counter",
            "counter=\"" + label_value(cleanup.column_text(0)) + "\"", cleanup.column_double(1));
    }
    store::Statement runs(db.get(), "SELECT passed, COUNT(*) FROM runs GROUP BY passed");
    add(families, "sandbox_runner_runs_total", "counter", "runs recorded, by result",
        "result=\"passed\"", 0);
    families["sandbox_runner_runs_total"].samples.emplace_back("result=\"failed\"", 0);
    while (runs.step()) {
        families["sandbox_runner_runs_total"].samples[runs.column_int(0) != 0 ? 0 : 1].second =
            static_cast<double>(runs.column_int(1));
    }
    store::Statement sessions(db.get(), "SELECT status, COUNT(*) FROM sessions GROUP BY status");
    while (sessions.step()) {
        add(families, "sandbox_runner_sessions", "gauge",
            "sessions by status; interrupted and crashed ones can be finished with --recover",
            "status=\"" + label_value(sessions.column_text(0)) + "\"",
            static_cast<double>(sessions.column_int(1)));
    }
    store::Statement recovered(db.get(),
                               "SELECT COUNT(*) FROM sessions WHERE status IN ('interrupted', "
                               "'crashed')");
    if (recovered.step()) {
        add(families, "sandbox_runner_recoverable_sessions", "gauge",
            "sessions an interruption or a crash left unfinished (run the command with --recover)",
            "", static_cast<double>(recovered.column_int(0)));
    }
}

// Whether the (possibly older, unmigrated) database has this column.
bool has_column(store::Connection &db, const std::string &table, const std::string &column) {
    store::Statement query(db.get(), "SELECT 1 FROM pragma_table_info(?) WHERE name = ?");
    query.bind(1, table).bind(2, column);
    return query.step();
}

// The original system's names, kept so its dashboards and alert rules work: restarts of the
// sandbox (sessions taken up again by --recover) and the Unix time of its last failure (a
// session that ended interrupted, failed or crashed; 0 when none). And the alerts raised.
void operations_samples(store::Connection &db, Families &families) {
    if (!has_column(db, "sessions", "recoveries")) {
        return;  // schema 11 or older, read as it is
    }
    store::Statement sessions(db.get(),
                              "SELECT COALESCE(SUM(recoveries), 0), "
                              "COALESCE(MAX(CAST(strftime('%s', failed_at) AS INTEGER)), 0) "
                              "FROM sessions");
    if (sessions.step()) {
        add(families, "sandbox_restart_total", "counter",
            "times an interrupted or crashed session was taken up again (--recover)", "",
            static_cast<double>(sessions.column_int(0)));
        add(families, "sandbox_last_failure_ts", "gauge",
            "Unix time a session last ended interrupted, failed or crashed; 0 when none", "",
            static_cast<double>(sessions.column_int(1)));
    }
    store::Statement alerts(db.get(), "SELECT kind, COUNT(*) FROM alerts GROUP BY kind");
    while (alerts.step()) {
        add(families, "sandbox_runner_alerts_total", "counter",
            "alerts raised (the alerts table), by kind",
            "kind=\"" + label_value(alerts.column_text(0)) + "\"",
            static_cast<double>(alerts.column_int(1)));
    }
}

// Per image, the docker executor's container starts (pool_failures.json), under the
// original system's names.
void container_samples(const std::filesystem::path &file, Families &families) {
    std::ifstream in(file);
    const auto counters = nlohmann::json::parse(in, nullptr, false);
    if (!counters.is_object()) {
        return;
    }
    for (const auto &item : counters.items()) {
        const nlohmann::json &entry = item.value();  // named: a lambda below reads it
        if (!entry.is_object()) {
            continue;
        }
        const std::string labels = "image=\"" + label_value(item.key()) + "\"";
        const auto value = [&](const char *key) {
            const auto found = entry.find(key);
            return found != entry.end() && found->is_number() ? found->get<double>() : 0.0;
        };
        add(families, "container_creation_failures_total", "counter",
            "failed attempts to create and start a container, by image", labels, value("failures"));
        add(families, "container_creation_success_total", "counter",
            "containers created and started, by image", labels, value("successes"));
        add(families, "container_creation_alerts_total", "counter",
            "times an image failed to start SANDBOX_POOL_FAIL_THRESHOLD times in a row, by image",
            labels, value("alerts"));
        add(families, "container_creation_seconds", "gauge",
            "how long the last attempt to create and start a container took, by image", labels,
            value("last_seconds"));
    }
}

}  // namespace

std::string label_value(const std::string &text) {
    // Prometheus refuses a whole scrape over one invalid UTF-8 label value.
    std::string out;
    for (const char c : reports::sanitize_text(text)) {
        if (c == '\\' || c == '"') {
            out += '\\';
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else {
            out += c;
        }
    }
    return out;
}

std::string prometheus_exposition(const std::filesystem::path &data_dir) {
    Families families;
    const auto state = data_dir / "state";
    add(families, "sandbox_runner_active_containers", "gauge",
        "containers the docker executor has running now", "",
        entries_in(state / "docker" / "active_containers.json"));
    add(families, "sandbox_runner_active_vms", "gauge", "guests the qemu executor has running now",
        "", entries_in(state / "qemu" / "active_overlays.json"));
    const auto live = live_snapshot();
    add(families, "sandbox_runner_matrix_runs_planned", "gauge",
        "runs the running command's matrix planned (0 when none runs)", "",
        static_cast<double>(live.planned));
    add(families, "sandbox_runner_matrix_runs_done", "gauge",
        "runs the running command's matrix finished", "", static_cast<double>(live.done));
    add(families, "sandbox_runner_matrix_runs_failed", "gauge",
        "runs of the running command's matrix that failed", "", static_cast<double>(live.failed));
    if (const auto db = store::open_read_only(data_dir / "metrics.db")) {
        scenario_samples(*db, families);
        synergy_samples(*db, families);
        history_samples(*db, families);
        operations_samples(*db, families);
    }
    container_samples(state / "docker" / "pool_failures.json", families);
    std::string text;
    for (const auto &[name, family] : families) {
        text += "# HELP " + name;
        text += " " + family.help + "\n# TYPE " + name + " " + family.type + "\n";
        for (const auto &[labels, value] : family.samples) {
            text += name;
            text += (labels.empty() ? "" : "{" + labels + "}") + " " + number(value) + "\n";
        }
    }
    return text;
}

}  // namespace sbx::dashboard
