# docs/cli.md: the usage text.
build/bin/sandbox-runner --help
