#include "reports/session_report.hpp"

#include "scoring/scenario_tips.hpp"
#include "util/errors.hpp"

namespace sbx::reports {

using nlohmann::json;

std::optional<int64_t> latest_scored_session(store::Connection &db) {
    // A run-scenarios session that never got its scores (interrupted, crashed) counts: its
    // report must say it did not finish, not show an older green one.
    store::Statement query(db.get(),
                           "SELECT MAX(id) FROM sessions WHERE id IN (SELECT session_id FROM "
                           "scenario_scores) OR command LIKE 'run-scenarios %'");
    if (!query.step() || query.column_is_null(0)) {
        return std::nullopt;
    }
    return query.column_int(0);
}

std::string verdict_text(int failing, int passing) {
    if (failing == 0 && passing == 0) {
        return "not applicable";
    }
    if (failing == 0) {
        return "pass";
    }
    return failing == 1 && passing >= 1 ? "situationally weak" : "fail";
}

namespace {

void load_session_row(store::Connection &db, SessionReport &report) {
    store::Statement query(db.get(),
                           "SELECT command, started_at, COALESCE(finished_at, ''), status, seed, "
                           "host_version, settings_source FROM sessions WHERE id = ?");
    query.bind(1, report.session);
    if (!query.step()) {
        throw InputError("session " + std::to_string(report.session) + " is not in " + db.path() +
                         "; leave SESSION out for the latest one");
    }
    report.command = query.column_text(0);
    report.started_at = query.column_text(1);
    report.finished_at = query.column_text(2);
    report.status = query.column_text(3);
    report.settings_source = query.column_text(6);
    store::Statement runs(db.get(), "SELECT count(*) FROM runs WHERE session_id = ?");
    runs.bind(1, report.session);
    if (runs.step()) {
        report.recorded_runs = runs.column_int(0);
    }
    if (!query.column_is_null(4)) {
        report.seed = query.column_int(4);
    }
    report.host_version = query.column_text(5);
}

// The on-runs of (workflow, scenario) in the session: counts, wall time, the first failure.
void load_runs(store::Connection &db, int64_t session, const std::string &workflow,
               ScenarioOutcome &outcome) {
    // A run the setup failed (cell_share.harness_error) is an error, not a failed run.
    store::Statement counts(db.get(),
                            "SELECT SUM(r.flag = 'on'), SUM(r.flag = 'on' AND r.passed = 0 AND "
                            "COALESCE(json_extract(r.cell_share, '$.harness_error'), '') = ''), "
                            "COALESCE(SUM(r.wall_s), 0) FROM runs r JOIN presets p ON p.id = "
                            "r.preset_id WHERE r.session_id = ? AND r.workflow = ? AND p.name = ?");
    counts.bind(1, session).bind(2, workflow).bind(3, outcome.scenario);
    if (counts.step()) {
        outcome.runs = static_cast<int>(counts.column_int(0));
        outcome.failed_runs = static_cast<int>(counts.column_int(1));
        outcome.wall_s = counts.column_double(2);
    }
    store::Statement first(db.get(),
                           "SELECT r.id, COALESCE(r.failed_step, ''), COALESCE(r.outcome, ''), "
                           "COALESCE(json_extract(r.cell_share, '$.failure_detail'), '') FROM "
                           "runs r JOIN presets p ON p.id = r.preset_id WHERE r.session_id = ? "
                           "AND r.workflow = ? AND p.name = ? AND r.flag = 'on' AND r.passed = 0 "
                           "AND COALESCE(json_extract(r.cell_share, '$.harness_error'), '') = '' "
                           "ORDER BY r.repetition, r.id LIMIT 1");
    first.bind(1, session).bind(2, workflow).bind(3, outcome.scenario);
    if (first.step()) {
        outcome.replay_run = first.column_int(0);
        outcome.failed_step = first.column_text(1);
        outcome.failed_outcome = first.column_text(2);
        outcome.failure_detail = first.column_text(3);
    }
}

}  // namespace

SessionReport load_session_report(store::Connection &db, int64_t session) {
    SessionReport report;
    report.session = session;
    load_session_row(db, report);
    report.disabled_plugins = store::plugin_failures(db, session);
    store::Statement query(db.get(),
                           "SELECT workflow, scenario, roi_on, roi_off, roi_delta, raroi_on, "
                           "raroi_off, raroi_delta, failed, worst, COALESCE(details, '{}'), "
                           "COALESCE(not_applicable, ''), COALESCE(inconclusive, '') FROM "
                           "scenario_scores WHERE session_id = ? ORDER BY workflow, position");
    query.bind(1, session);
    while (query.step()) {
        const std::string workflow = query.column_text(0);
        if (report.workflows.empty() || report.workflows.back().workflow != workflow) {
            report.workflows.push_back({workflow, "", "", "", {}});
        }
        ScenarioOutcome outcome;
        outcome.scenario = query.column_text(1);
        outcome.roi_on = query.column_double(2);
        outcome.roi_off = query.column_double(3);
        outcome.roi_delta = query.column_double(4);
        outcome.raroi_on = query.column_double(5);
        outcome.raroi_off = query.column_double(6);
        outcome.raroi_delta = query.column_double(7);
        outcome.failed = query.column_int(8) != 0;
        outcome.worst = query.column_int(9) != 0;
        const json details = json::parse(query.column_text(10), nullptr, false);
        if (details.is_object() && details.contains("reasons") && details["reasons"].is_array()) {
            for (const auto &reason : details["reasons"]) {
                if (reason.is_string()) {
                    outcome.reasons.push_back(reason.get<std::string>());
                }
            }
        }
        outcome.not_applicable = query.column_text(11);
        outcome.inconclusive = query.column_text(12);
        if (details.is_object() && details.contains("broken") && details["broken"].is_string()) {
            outcome.broken = details["broken"].get<std::string>();
        }
        if (outcome.failed) {
            outcome.tip = scoring::hardening_tip(outcome.scenario);
        }
        load_runs(db, session, workflow, outcome);
        auto &current = report.workflows.back();
        if (outcome.worst) {
            current.worst_scenario = outcome.scenario;
        }
        current.scenarios.push_back(std::move(outcome));
    }
    for (auto &workflow : report.workflows) {
        int failing = 0;
        int passing = 0;
        int inconclusive = 0;
        for (const auto &scenario : workflow.scenarios) {
            if (!scenario.broken.empty()) {
                workflow.broken = scenario.broken;
            }
            if (!scenario.inconclusive.empty()) {
                ++inconclusive;
            } else if (scenario.not_applicable.empty()) {
                (scenario.failed ? failing : passing) += 1;
            }
        }
        workflow.verdict = verdict_text(failing, passing);
        if (failing == 0) {
            // The lowest delta among scenarios that all held up is no weakness: the shared
            // reports (Markdown, HTML, JUnit, the dashboard) name a worst scenario only when
            // one failed, as the text report marks it.
            workflow.worst_scenario.clear();
            for (auto &scenario : workflow.scenarios) {
                scenario.worst = false;
            }
        }
        if (!workflow.broken.empty()) {
            workflow.verdict = "broken";
            for (auto &scenario : workflow.scenarios) {
                scenario.tip.clear();  // no fault is to blame while nothing works
            }
        } else if (inconclusive > 0 && failing == 0) {
            workflow.verdict = "inconclusive";
        }
    }
    return report;
}

std::string unfinished_text(const SessionReport &report, const std::string &command_prefix) {
    if (report.status == "finished") {
        return "";
    }
    const std::string state = report.status == "running"
                                  ? "not finished (still running, or its host was killed)"
                                  : report.status;
    std::string text = state + " after " + std::to_string(report.recorded_runs) +
                       " run(s): the matrix did not finish, so no verdict covers it";
    // The commands whose sessions --recover finishes, as they are typed: a `run` session is
    // recorded as "run NAME" for `run --workflow NAME`.
    std::string command = report.command;
    if (command.rfind("run ", 0) == 0 && command.rfind("run --", 0) != 0) {
        command = "run --workflow " + command.substr(4);
    }
    if (command.rfind("run ", 0) == 0 || command.rfind("run-scenarios ", 0) == 0) {
        text += "; finish it with `" + command_prefix + " " + command + " --recover`";
    }
    return text;
}

json to_json(const SessionReport &report) {
    json workflows = json::array();
    for (const auto &workflow : report.workflows) {
        json scenarios = json::array();
        for (const auto &s : workflow.scenarios) {
            scenarios.push_back(
                {{"scenario", s.scenario},
                 {"roi_on", s.roi_on},
                 {"roi_off", s.roi_off},
                 {"roi_delta", s.roi_delta},
                 {"raroi_on", s.raroi_on},
                 {"raroi_off", s.raroi_off},
                 {"raroi_delta", s.raroi_delta},
                 {"failed", s.failed},
                 {"worst", s.worst},
                 {"not_applicable", s.not_applicable.empty() ? json() : json(s.not_applicable)},
                 {"inconclusive", s.inconclusive.empty() ? json() : json(s.inconclusive)},
                 {"reasons", s.reasons},
                 {"tip", s.tip.empty() ? json() : json(s.tip)},
                 {"runs", s.runs},
                 {"failed_runs", s.failed_runs},
                 {"wall_s", s.wall_s},
                 {"replay_run", s.replay_run == 0 ? json() : json(s.replay_run)},
                 {"failed_step", s.failed_step.empty() ? json() : json(s.failed_step)},
                 {"failed_outcome", s.failed_outcome.empty() ? json() : json(s.failed_outcome)},
                 {"failure_detail", s.failure_detail.empty() ? json() : json(s.failure_detail)}});
        }
        workflows.push_back(
            {{"workflow", workflow.workflow},
             {"verdict", workflow.verdict},
             {"broken", workflow.broken.empty() ? json() : json(workflow.broken)},
             {"worst_scenario",
              workflow.worst_scenario.empty() ? json() : json(workflow.worst_scenario)},
             {"scenarios", scenarios}});
    }
    return {{"session", report.session},
            {"command", report.command},
            {"started_at", report.started_at},
            {"finished_at", report.finished_at.empty() ? json() : json(report.finished_at)},
            {"status", report.status},
            {"seed", report.seed ? json(*report.seed) : json()},
            {"host_version", report.host_version},
            {"workflows", workflows},
            {"disabled_plugins", disabled_plugins_json(report.disabled_plugins)}};
}

std::vector<std::string> disabled_plugin_lines(const std::vector<store::PluginFailure> &disabled) {
    std::vector<std::string> lines;
    for (const auto &entry : disabled) {
        std::string line = "plugin " + entry.id + " (" + entry.kind +
                           ") was disabled: " + entry.reason + "; its " +
                           (entry.kind == "predictor" ? "forecasts" : "metrics") +
                           " are absent from " + entry.context + " on";
        if (!entry.replay.empty()) {
            line += "; replay: " + entry.replay;
        }
        lines.push_back(std::move(line));
    }
    return lines;
}

json disabled_plugins_json(const std::vector<store::PluginFailure> &disabled) {
    json entries = json::array();
    for (const auto &entry : disabled) {
        entries.push_back({{"plugin", entry.id},
                           {"kind", entry.kind},
                           {"path", entry.path},
                           {"call", entry.call},
                           {"failure", entry.failure},
                           {"reason", entry.reason},
                           {"where", entry.context},
                           {"run", entry.run_id ? json(*entry.run_id) : json()},
                           {"request_file", entry.request_file},
                           {"replay", entry.replay},
                           {"advice", entry.advice}});
    }
    return entries;
}

}  // namespace sbx::reports
