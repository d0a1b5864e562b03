# docs/cli.md, `rank-*`: a metric other than roi, JSON, and errors (exit 2).
@ cp "$SAMPLES/files/two-workflows.yaml" . && cp -r "$SAMPLES/files/repo" . && mkdir empty
@ build/bin/sandbox-runner --config two-workflows.yaml --data-dir data-wf run --all-workflows --runs 2 --seed 3 --workers 1
@ SANDBOX_REPO_PATH=repo build/bin/sandbox-runner --config repo/sections.yaml --data-dir data-sections run --sections --runs 2 --seed 7 --workers 1
build/bin/sandbox-runner rank-scenario-synergy data-wf data-sections --metric stderr_bytes
build/bin/sandbox-runner rank-synergy data-sections --json
build/bin/sandbox-runner rank-scenarios
build/bin/sandbox-runner rank-scenarios empty
echo $?
