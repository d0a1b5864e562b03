# docs/user-guide.md, adapt-presets: a preset stepped from its history (the rules while it
# is short), run, and stepped again from what the step did.
@ cp "$SAMPLES/files/squeeze.yaml" .
@ build/bin/sandbox-runner --config squeeze.yaml run --runs 2 --seed 1
build/bin/sandbox-runner --config squeeze.yaml adapt-presets --seed 1
@ build/bin/sandbox-runner --config squeeze.yaml run --runs 2 --seed 1 --preset-file sandbox_data/adapted_presets.json
build/bin/sandbox-runner --config squeeze.yaml adapt-presets --seed 1 --preset-file sandbox_data/adapted_presets.json
