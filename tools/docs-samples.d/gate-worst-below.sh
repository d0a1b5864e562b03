# docs/user-guide.md, "run-scenarios", gates: a failed gate exits 1 after the report.
build/bin/sandbox-runner run-scenarios demo-kv --seed 7 --workers 1 --fail-on worst-below=-0.5 > /dev/null
echo $?
