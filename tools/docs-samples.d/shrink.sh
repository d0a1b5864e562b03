# docs/cli.md, `shrink`: a hostile_input failure of the tour's matrix cut down.
@after run-scenarios-demo
build/bin/sandbox-runner shrink 43
