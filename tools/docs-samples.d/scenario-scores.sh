# README, "A five-minute tour" 3: the scores the matrix above recorded.
@ build/bin/sandbox-runner run-scenarios demo-kv --repetitions 4 --seed 7 --workers 1
sqlite3 -header -column sandbox_data/metrics.db \
    'SELECT scenario, roi_on, roi_off, roi_delta, failed, worst FROM scenario_scores ORDER BY position'
