# docs/user-guide.md, "workflows": import a workflow file, list what commands can name.
@ cp "$SAMPLES/files/kv-read.yaml" .
build/bin/sandbox-runner workflows import kv-read.yaml
build/bin/sandbox-runner workflows list
