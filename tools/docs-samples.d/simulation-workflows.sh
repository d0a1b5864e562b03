# docs/user-guide.md, "run --all-workflows": two workflows apart and together.
@ cp "$SAMPLES/files/two-workflows.yaml" .
build/bin/sandbox-runner --config two-workflows.yaml run --all-workflows --runs 2 --seed 3 --workers 1
