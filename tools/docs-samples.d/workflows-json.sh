# docs/cli.md, `workflows`: the list as JSON, and an import without a file (exit 2).
@ cp "$SAMPLES/files/kv-read.yaml" .
@ build/bin/sandbox-runner workflows import kv-read.yaml
build/bin/sandbox-runner workflows list --json
build/bin/sandbox-runner workflows import
