# docs/user-guide.md, "run-scenarios": baseline A/B mode, new build against old build.
# Twenty repetitions: the concurrency_spike copies race, and with two every copy of both
# repetitions sometimes won (no failure to show, a stale sample).
@ cp "$SAMPLES/files/ab.yaml" .
build/bin/sandbox-runner --config ab.yaml run-scenarios demo-kv --repetitions 20 --seed 7 --workers 1
