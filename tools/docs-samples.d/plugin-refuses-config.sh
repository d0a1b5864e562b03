# docs/abi.md, "Configuration": a plugin's create() refuses what its schema let through.
@ cp "$SAMPLES/files/refused-config.yaml" .
build/bin/sandbox-runner --config refused-config.yaml run
