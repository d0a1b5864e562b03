# docs/cli.md, `run --sections`: errors of section simulations, exit 2.
@ cp -r "$SAMPLES/files/repo" .
build/bin/sandbox-runner --config repo/sections.yaml run --sections
build/bin/sandbox-runner run --sections
echo $?
