# docs/cli.md, `plugins list`: a plugin id found twice is refused the second time.
@ mkdir dup && cp build/plugins/predictors/ema.so dup/
build/bin/sandbox-runner --plugin-dir dup plugins list
