# docs/sqlite-schema.md, example queries: ROI per preset in the latest session.
@after run-workflow
sqlite3 -header -column sandbox_data/metrics.db "
    SELECT p.name AS preset, c.runs, c.passed, c.roi
    FROM cells c JOIN presets p ON p.id = c.preset_id
    WHERE c.session_id = (SELECT max(id) FROM sessions);"
