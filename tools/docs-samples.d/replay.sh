# docs/cli.md, `replay`: a failed run of the tour's matrix again (a hostile_input one: a
# concurrency_spike run races, and its replay may not fail the same way), then as shell lines
# ($PWD: the directory the matrix ran in).
@after run-scenarios-demo
build/bin/sandbox-runner replay 35
build/bin/sandbox-runner replay 43 --print
