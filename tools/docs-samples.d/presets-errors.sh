# docs/cli.md, `presets generate`: bad usage, exit 2.
build/bin/sandbox-runner presets generate --canonical --seed 1
build/bin/sandbox-runner presets generate --profiles nope
build/bin/sandbox-runner presets generate --count 0
echo $?
