# docs/cli.md: one command's help.
build/bin/sandbox-runner help report
