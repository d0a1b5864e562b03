# docs/cli.md, `replay`: a failed run of the tour's matrix again, then as shell lines
# ($PWD: the directory the matrix ran in).
@after run-scenarios-demo
build/bin/sandbox-runner replay 17
build/bin/sandbox-runner replay 43 --print
