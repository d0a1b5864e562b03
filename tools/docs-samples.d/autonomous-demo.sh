# docs/user-guide.md, full-autonomous-run: the demo workflow under the settings' presets.
build/bin/sandbox-runner full-autonomous-run --max-iterations 5 --seed 7 --workers 1
