# docs/user-guide.md, full-autonomous-run: the demo workflow under generated presets that
# adapt each iteration (the seeds' first example).
build/bin/sandbox-runner full-autonomous-run --preset-count 3 --max-iterations 5 --seed 305 --workers 1
