# docs/configuration.md, "Errors": where each bad value was written, and what to write.
@ cp "$SAMPLES/../../tests/config/bad/preset_bad_size.yaml" "$SAMPLES/files/typo.yaml" .
build/bin/sandbox-runner --config preset_bad_size.yaml run
cat typo.yaml
build/bin/sandbox-runner --config typo.yaml run
SANDBOX_WORKERS=0 build/bin/sandbox-runner plugins list
echo $?
