# docs/user-guide.md, "run-scenarios": the inputs and stderr of failed hostile runs.
@after run-scenarios-demo
sqlite3 -header -column sandbox_data/metrics.db "
    SELECT r.id AS run, substr(r.inputs, 1, 40) AS inputs, s.exit_code,
           trim(json_extract(s.result, '$.stderr')) AS stderr
    FROM runs r JOIN presets p ON p.id = r.preset_id JOIN steps s ON s.run_id = r.id
    WHERE r.session_id = 1 AND r.passed = 0 AND p.name = 'hostile_input' LIMIT 4;"
