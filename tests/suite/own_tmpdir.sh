#!/bin/sh
# own_tmpdir.sh ROOT [--name NAME] COMMAND [ARGS...]
# Runs one test with a TMPDIR of its own, ROOT/NAME, made fresh (tests run in parallel, so
# they cannot share one), then fails the test when it left anything there, naming each
# entry, and removes the folder. NAME is the gtest filter's test name (gtest_discover_tests
# gives --gtest_filter=Suite.Test), or --name for a test added with add_test. The per-user
# state folder (sandbox-runner-UID) may stay, empty but for an executor's `state` records:
# the product keeps it like a cache folder (tests/suite/suite_tmpdir.cmake says the same).
# A test binary asked for its list of tests (--gtest_list_tests, at build time) just runs.
#
# A TMPDIR holding a space or colon (a checkout on such a path) cannot carry what LD_PRELOAD
# needs, so the product puts those copies in $XDG_RUNTIME_DIR/sandbox-runner, else in
# /tmp/sandbox-runner-UID: one folder every test would share, where one test's purge-stale
# removes what another test is counting. Such a test gets a private XDG_RUNTIME_DIR too,
# checked and removed the same way.
root=$1
shift
name=
if [ "$1" = --name ]; then
  name=$2
  shift 2
fi
for arg in "$@"; do
  case $arg in
    --gtest_list_tests) exec "$@" ;;
    --gtest_filter=*) [ -n "$name" ] || name=${arg#--gtest_filter=} ;;
  esac
done
if [ -z "$name" ]; then
  echo "own_tmpdir.sh: no test name (--name or --gtest_filter=) for: $*" >&2
  exit 2
fi
# A folder name from the test's name: parameterised tests have slashes in theirs.
dir=$root/$(printf '%s' "$name" | tr -c 'A-Za-z0-9._-' '_')
rm -rf "$dir"
mkdir -p "$dir" || exit 2
runtime=
case $dir in
  *[\ :]*)
    runtime=$(mktemp -d /tmp/sbx-test-runtime.XXXXXX) || exit 2
    XDG_RUNTIME_DIR=$runtime
    export XDG_RUNTIME_DIR
    ;;
esac

TMPDIR=$dir "$@"
status=$?

left=$(find "$dir" -mindepth 1 -maxdepth 1 ! \( -type d -name 'sandbox-runner-[0-9]*' \)
       find "$dir" -mindepth 2 -maxdepth 2 -path "$dir/sandbox-runner-*/*" ! -name state)
rm -rf "$dir" 2>/dev/null
if [ -n "$runtime" ]; then
  # Only the product's folder: other programs keep their own files there (ccache-tmp).
  left_in_runtime=$(find "$runtime" -mindepth 2 -maxdepth 2 -path "$runtime/sandbox-runner/*" ! -name state)
  if [ -n "$left_in_runtime" ]; then
    left=${left:+$left
}$left_in_runtime
  fi
  rm -rf "$runtime" 2>/dev/null
fi
if [ -n "$left" ]; then
  echo "own_tmpdir.sh: the test left these in its TMPDIR $dir (removed now); make it clean up:" >&2
  printf '%s\n' "$left" | sed 's/^/  /' >&2
  [ "$status" -ne 0 ] || status=1
fi
exit "$status"
