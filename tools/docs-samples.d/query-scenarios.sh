# docs/sqlite-schema.md, example queries: worst scenarios and trajectory stages.
@after run-scenarios-demo
@ build/bin/sandbox-runner simulate-temporal-trajectory demo-kv --seed 7 --workers 1
sqlite3 -header -column sandbox_data/metrics.db "
    SELECT s.id AS session, sc.workflow, sc.scenario, sc.roi_delta,
           json_extract(sc.details, '$.reasons[0]') AS reason
    FROM scenario_scores sc JOIN sessions s ON s.id = sc.session_id
    WHERE sc.worst = 1 ORDER BY s.id;"
sqlite3 -header -column sandbox_data/metrics.db "
    SELECT stage, roi, round(resilience, 3) AS resilience, round(stability, 3) AS stability
    FROM trajectory_stages WHERE session_id = (SELECT max(session_id) FROM trajectory_stages)
    ORDER BY position;"
