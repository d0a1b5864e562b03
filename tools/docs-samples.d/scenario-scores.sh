# README, "A five-minute tour" 3: the scores the matrix of the tour recorded. printf keeps
# the columns as wide whatever the racing concurrency_spike cell scored.
@after run-scenarios-demo
sqlite3 -header -column sandbox_data/metrics.db \
    "SELECT scenario, printf('%.3f', roi_on) AS roi_on, printf('%.3f', roi_off) AS roi_off,
            printf('%+.3f', roi_delta) AS roi_delta, failed, worst
     FROM scenario_scores ORDER BY position"
