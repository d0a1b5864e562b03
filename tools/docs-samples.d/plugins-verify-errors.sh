# docs/plugin-authors.md, "Testing a plugin": plugins verify on the test suite's broken
# plugins (built with the tests), exit 2.
build/bin/sandbox-runner plugins verify build/test-plugins-preflight/fixtures/undefined_symbol.so
build/bin/sandbox-runner plugins verify build/test-plugins-preflight/fixtures/future_glibc.so
build/bin/sandbox-runner plugins verify build/test-plugins-preflight/fixtures/missing_library.so
build/bin/sandbox-runner plugins verify build/test-plugins-preflight/fixtures/extra_export.so
build/bin/sandbox-runner plugins verify build/test-plugins-preflight/fixtures/smoke_fails.so
echo $?
