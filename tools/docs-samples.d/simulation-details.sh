# docs/user-guide.md, "run --all-workflows": --details shows every metric and synergy.
@ cp "$SAMPLES/files/two-workflows.yaml" .
SANDBOX_ENV_PRESETS='{"SCENARIO_NAME": "normal"}' build/bin/sandbox-runner --config two-workflows.yaml run --all-workflows --runs 2 --details
