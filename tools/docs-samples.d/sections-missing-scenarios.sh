# docs/user-guide.md, "run --sections": SANDBOX_FAIL_ON_MISSING_SCENARIOS=1.
@ cp -r "$SAMPLES/files/repo" .
SANDBOX_REPO_PATH=repo SANDBOX_FAIL_ON_MISSING_SCENARIOS=1 build/bin/sandbox-runner --config repo/sections.yaml run --sections
