# docs/user-guide.md, "presets generate": the canonical presets of one profile.
build/bin/sandbox-runner presets generate --canonical --profiles flaky_upstream
