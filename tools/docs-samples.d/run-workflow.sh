# docs/cli.md, `run`: one workflow under the settings' four presets.
build/bin/sandbox-runner run --workflow demo-kv --runs 2 --seed 7 --workers 1
