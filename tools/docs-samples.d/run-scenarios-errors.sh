# docs/cli.md, `run-scenarios`: bad usage, exit 2.
build/bin/sandbox-runner run-scenarios demo-kv --fail-on worst=-1
build/bin/sandbox-runner run-scenarios demo-kv --recover --seed 3
build/bin/sandbox-runner run-scenarios demo-kv --recover
build/bin/sandbox-runner run-scenarios demo-kv --repetitions 0
echo $?
