# Sourced first by the suite's shell tests (tests/install, tests/abi), so each starts the
# same way: `fail MESSAGE` ends the test, and $work is a fresh scratch folder under the
# test's own TMPDIR, named after the script and removed when it exits (a script that must
# remove more sets its own EXIT trap, naming $work too).
set -euo pipefail
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
work=$(mktemp -d "${TMPDIR:-/tmp}/sbx-$(basename "$0" .sh)-XXXXXX")
trap 'rm -rf "$work"' EXIT
