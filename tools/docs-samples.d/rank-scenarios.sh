# docs/user-guide.md, "Rankings": ROI summed per scenario over a matrix and a trajectory.
@ build/bin/sandbox-runner run-scenarios demo-kv --seed 7 --workers 1
@ build/bin/sandbox-runner simulate-temporal-trajectory demo-kv --seed 7 --workers 1
build/bin/sandbox-runner rank-scenarios sandbox_data
