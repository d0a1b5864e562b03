# docs/user-guide.md, "presets generate": seeded random presets on two profiles.
build/bin/sandbox-runner presets generate --profiles hostile_input schema_drift --severity low --seed 42
