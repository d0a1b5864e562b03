# docs/user-guide.md, "Rankings": ROI summed per scenario over the tour's matrix and a trajectory.
@after run-scenarios-demo
@ build/bin/sandbox-runner simulate-temporal-trajectory demo-kv --seed 7 --workers 1
build/bin/sandbox-runner rank-scenarios sandbox_data
