# docs/user-guide.md, "run-scenarios": `scenarios:` replaces the built-in list.
@ cp "$SAMPLES/files/scenarios.yaml" .
build/bin/sandbox-runner --config scenarios.yaml run-scenarios demo-kv --repetitions 2 --seed 7 --workers 1
