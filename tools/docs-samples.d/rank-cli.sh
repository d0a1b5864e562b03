# docs/cli.md, `rank-*`: a ranking per workflow and across them, a metric other than roi,
# JSON, and errors (exit 2).
@after rank-synergy
@ mkdir empty
build/bin/sandbox-runner rank-scenarios data-wf
build/bin/sandbox-runner rank-scenarios data-wf --all-workflows
build/bin/sandbox-runner rank-scenario-synergy data-wf data-sections --metric stderr_bytes
build/bin/sandbox-runner rank-synergy data-sections --json
build/bin/sandbox-runner rank-scenarios
build/bin/sandbox-runner rank-scenarios empty
echo $?
