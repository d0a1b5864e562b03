#!/usr/bin/env bash
# A user's plain release configure (`cmake -S REPO -B DIR`, no options) compiles with the
# project's warnings but never turns them into errors: a newer compiler's new warnings must
# not break their build. And the developer build (SBX_DEVELOPER=ON, tools/build) does.
# Configure only, no build; reads the compile commands. Args: REPO.
source "$(dirname "$0")/../support/script_prelude.sh"
repo=$1
# The host's own sources: the flags that matter to a user building the product.
host_flags() {
    python3 -c 'import json, sys
print(next((e["command"] for e in json.load(open(sys.argv[1]))
            if "/host/core/" in e["file"]), ""))' "$1/compile_commands.json"
}

# Each configure's time is printed: on a loaded 2-core machine they have taken minutes.
SECONDS=0
cmake -S "$repo" -B "$work/user" -DCMAKE_BUILD_TYPE=Release >"$work/user.log" 2>&1 ||
    fail "a plain configure failed: $(cat "$work/user.log")"
echo "plain configure: ${SECONDS} s"
flags=$(host_flags "$work/user")
[[ -n $flags ]] || fail "no host source in $work/user/compile_commands.json"
[[ $flags == *" -Wall "* ]] || fail "the release build lost the project's warnings: $flags"
[[ $flags != *"-Werror"* ]] || fail "a plain release configure treats warnings as errors: $flags"

# Without the tests: only the host's flags are read, and the tests' configure is half the time.
SECONDS=0
cmake -S "$repo" -B "$work/dev" -DSBX_DEVELOPER=ON -DSBX_BUILD_TESTS=OFF >"$work/dev.log" 2>&1 ||
    fail "the developer configure failed: $(cat "$work/dev.log")"
echo "developer configure: ${SECONDS} s"
[[ $(host_flags "$work/dev") == *"-Werror"* ]] ||
    fail "SBX_DEVELOPER=ON does not treat warnings as errors: $(host_flags "$work/dev")"
echo "release: warnings, no -Werror; developer: -Werror"
