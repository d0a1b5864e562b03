# docs/cli.md, `run-scenarios`: a gate on the status (exit 1).
build/bin/sandbox-runner run-scenarios demo-kv --seed 7 --workers 1 --fail-on status=weak > /dev/null
echo $?
