# docs/plugin-authors.md, "Testing a plugin": plugins verify on a good plugin.
build/bin/sandbox-runner plugins verify build/plugins/predictors/ema.so
