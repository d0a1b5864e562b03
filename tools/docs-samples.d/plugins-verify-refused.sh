# docs/cli.md, `plugins verify`: files the loader refuses (exit 2).
@ cp "$SAMPLES/../../tests/abi/fixtures/not_a_plugin.so" .
build/bin/sandbox-runner plugins verify not_a_plugin.so
build/bin/sandbox-runner plugins verify build/test-plugins/fixtures/abi_major_mismatch.so
echo $?
