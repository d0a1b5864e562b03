# docs/user-guide.md, run-autonomous: the demo workflow under generated presets that
# adapt each iteration (the seeds' first example).
build/bin/sandbox-runner run-autonomous --preset-count 3 --max-iterations 5 --seed 305 --workers 1
