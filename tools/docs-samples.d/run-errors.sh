# docs/cli.md, `run`: bad usage, exit 2.
build/bin/sandbox-runner run --runs 0
build/bin/sandbox-runner run --workflow nope
build/bin/sandbox-runner run --wokflow x
build/bin/sandbox-runner run --workflow demo-kv --all-workflows
build/bin/sandbox-runner run --workers 0
echo $?
