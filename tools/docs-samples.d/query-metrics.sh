# docs/sqlite-schema.md, example queries: the mean of each run metric.
@ build/bin/sandbox-runner run --workflow demo-kv --runs 3 --seed 7 --workers 1
sqlite3 -header -column sandbox_data/metrics.db "
    SELECT name, printf('%.4f', avg(value)) AS mean FROM metrics
    WHERE run_id IS NOT NULL GROUP BY name;"
