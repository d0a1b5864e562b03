# README, "A five-minute tour" 2: the demo workflow's scenario matrix. --workers 1 keeps
# the run ids of the replay lines in matrix order.
build/bin/sandbox-runner run-scenarios demo-kv --repetitions 4 --seed 7 --workers 1
