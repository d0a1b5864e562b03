# docs/user-guide.md, "run --sections": the tiny repository of files/repo.
@ cp -r "$SAMPLES/files/repo" .
SANDBOX_REPO_PATH=repo build/bin/sandbox-runner --config repo/sections.yaml run --sections --runs 2 --seed 7 --workers 1
