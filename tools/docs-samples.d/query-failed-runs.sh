# docs/sqlite-schema.md, example queries: why runs failed.
@after run-workflow
sqlite3 -header -column sandbox_data/metrics.db "
    SELECT r.id AS run, s.name AS step, s.status, s.exit_code,
           json_extract(s.result, '$.limit') AS \"limit\"
    FROM runs r JOIN steps s ON s.run_id = r.id
    WHERE r.passed = 0;"
