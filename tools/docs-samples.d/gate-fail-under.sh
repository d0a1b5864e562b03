# docs/cli.md, `run`: a failed gate prints the report, then exits with 1.
build/bin/sandbox-runner run --workflow demo-kv --fail-under 0.9 --workers 1 > /dev/null
echo $?
