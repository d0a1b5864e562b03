# docs/user-guide.md, "run --all-workflows": parts converge, then are skipped.
@after simulation-workflows
@ build/bin/sandbox-runner --config two-workflows.yaml run --all-workflows --runs 2 --seed 3 --workers 1
build/bin/sandbox-runner --config two-workflows.yaml --log-level info run --all-workflows --runs 2 --seed 3 --workers 1
build/bin/sandbox-runner --config two-workflows.yaml --log-level info run --all-workflows --runs 2 --seed 3 --workers 1
