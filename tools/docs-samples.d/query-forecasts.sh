# docs/sqlite-schema.md, example queries: a cell's ROI over four sessions, with forecasts.
@after run-workflow
@ for i in 1 2 3; do build/bin/sandbox-runner run --workflow demo-kv --runs 2 --seed 7 --workers 1 || exit; done
sqlite3 -header -column sandbox_data/metrics.db "
    SELECT c.session_id AS session, c.roi, pr.value AS forecast, pr.lower, pr.upper,
           pr.actual AS next_roi
    FROM cells c JOIN presets p ON p.id = c.preset_id
    LEFT JOIN predictions pr ON pr.session_id = c.session_id AND pr.shown = 1
         AND pr.subject = 'roi:' || c.workflow || ':' || p.name || ':' || c.flag
    WHERE c.workflow = 'demo-kv' AND p.name = 'normal' ORDER BY c.id;"
