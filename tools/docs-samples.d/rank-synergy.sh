# docs/user-guide.md, "Rankings": synergy summed over a workflow and a section simulation.
@ cp "$SAMPLES/files/two-workflows.yaml" . && cp -r "$SAMPLES/files/repo" .
@ build/bin/sandbox-runner --config two-workflows.yaml --data-dir data-wf run --all-workflows --runs 2 --seed 3 --workers 1
@ SANDBOX_REPO_PATH=repo build/bin/sandbox-runner --config repo/sections.yaml --data-dir data-sections run --sections --runs 2 --seed 7 --workers 1
build/bin/sandbox-runner rank-synergy data-wf data-sections
build/bin/sandbox-runner rank-synergy data-wf --metric wal_s
