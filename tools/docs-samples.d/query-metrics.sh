# docs/sqlite-schema.md, example queries: the mean of each run metric.
@after run-workflow
sqlite3 -header -column sandbox_data/metrics.db "
    SELECT name, printf('%.4f', avg(value)) AS mean FROM metrics
    WHERE run_id IS NOT NULL GROUP BY name;"
