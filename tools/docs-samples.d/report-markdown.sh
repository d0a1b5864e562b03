@after run-scenarios-demo
# docs/user-guide.md: the Markdown report of the demo's matrix, as a pull request shows it.
build/bin/sandbox-runner report --format markdown
