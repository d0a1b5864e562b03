# docs/sqlite-schema.md, example queries: the mean of each run metric under one preset.
@after run-workflow
sqlite3 -header -column sandbox_data/metrics.db "
    SELECT m.name, printf('%.4f', avg(m.value)) AS mean
    FROM metrics m JOIN runs r ON r.id = m.run_id JOIN presets p ON p.id = r.preset_id
    WHERE p.name = 'normal' GROUP BY m.name;"
