# docs/cli.md, `shrink`: a schema_drift failure of the tour's matrix cut down.
@after run-scenarios-demo
build/bin/sandbox-runner shrink 43
