# docs/cli.md, `plugins inspect ID`.
build/bin/sandbox-runner plugins inspect ema
build/bin/sandbox-runner plugins inspect nope
