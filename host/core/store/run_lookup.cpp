// Reading one run back from metrics.db.
#include "store/run_lookup.hpp"

namespace sbx::store {

std::optional<RecordedRun> find_run(Store &store, int64_t run_id) {
    return store.locked([&](Connection &connection) -> std::optional<RecordedRun> {
        Statement query(
            connection.get(),
            "SELECT runs.session_id, sessions.command, coalesce(sessions.seed, 0), "
            "runs.workflow, presets.name, presets.body, runs.flag, runs.repetition, "
            "runs.inputs, runs.input_meta, runs.passed, coalesce(runs.failed_step, ''), "
            "coalesce(runs.outcome, '') "
            "FROM runs JOIN sessions ON sessions.id = runs.session_id "
            "JOIN presets ON presets.id = runs.preset_id WHERE runs.id = ?");
        query.bind(1, run_id);
        if (!query.step()) {
            return std::nullopt;
        }
        RecordedRun run;
        run.id = run_id;
        run.session_id = query.column_int(0);
        run.command = query.column_text(1);
        run.seed = query.column_int(2);
        run.workflow = query.column_text(3);
        run.preset_name = query.column_text(4);
        run.preset_body = nlohmann::json::parse(query.column_text(5));
        run.flag = query.column_text(6);
        run.repetition = static_cast<int>(query.column_int(7));
        run.inputs = nlohmann::json::parse(query.column_text(8));
        const std::string meta = query.column_text(9);
        run.input_meta = meta.empty() ? nlohmann::json() : nlohmann::json::parse(meta);
        run.passed = query.column_int(10) != 0;
        run.failed_step = query.column_text(11);
        run.outcome = query.column_text(12);
        Statement steps(
            connection.get(),
            "SELECT name, status, passed, signal, coalesce(json_extract(result, '$.stderr'), ''), "
            "exit_code "
            "FROM steps WHERE run_id = ? ORDER BY position");
        steps.bind(1, run_id);
        while (steps.step()) {
            run.steps.push_back({steps.column_text(0), steps.column_text(1),
                                 steps.column_int(2) != 0, static_cast<int>(steps.column_int(3)),
                                 steps.column_text(4), static_cast<int>(steps.column_int(5))});
        }
        return run;
    });
}

}  // namespace sbx::store
