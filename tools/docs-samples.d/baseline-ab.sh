# docs/user-guide.md, "run-scenarios": baseline A/B mode, new build against old build.
@ cp "$SAMPLES/files/ab.yaml" .
build/bin/sandbox-runner --config ab.yaml run-scenarios demo-kv --repetitions 2 --seed 7 --workers 1
