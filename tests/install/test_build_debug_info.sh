#!/usr/bin/env bash
# tools/build's SBX_DEBUG_INFO on a copy of the sources (configure only, through the
# `rebuild_cache` target): line tables by default, full -g when asked, an existing build
# reconfigured only when the variable is set and differs, and an unknown value refused
# with exit 2 before anything is configured. Args: REPO.
source "$(dirname "$0")/../support/script_prelude.sh"
repo=$1
mkdir "$work/src"
tar -C "$repo" --exclude='./build*' --exclude=./.git -cf - . | tar -C "$work/src" -xf -
cd "$work/src"
flags() {
    sed -n 's/^CMAKE_CXX_FLAGS_RELWITHDEBINFO:STRING=//p' build/CMakeCache.txt
}
configure() {
    env -u SBX_DEBUG_INFO "$@" tools/build rebuild_cache >"$work/build.log" 2>&1 ||
        fail "tools/build with $* failed: $(tail -20 "$work/build.log")"
}

set +e
SBX_DEBUG_INFO=ful tools/build rebuild_cache >"$work/refused.log" 2>&1
status=$?
set -e
((status == 2)) || fail "SBX_DEBUG_INFO=ful exited $status, not 2: $(cat "$work/refused.log")"
grep -q "SBX_DEBUG_INFO=ful is neither 'lines'" "$work/refused.log" ||
    fail "SBX_DEBUG_INFO=ful was refused without naming it: $(cat "$work/refused.log")"
[[ ! -e build ]] || fail "SBX_DEBUG_INFO=ful configured a build before it was refused"

configure SBX_DEVELOPER=OFF
[[ $(flags) == "-O2 -g1 -DNDEBUG" ]] || fail "a first configure's flags: '$(flags)', not line tables"
configure SBX_DEBUG_INFO=full
[[ $(flags) == "-O2 -g -DNDEBUG" ]] || fail "SBX_DEBUG_INFO=full left the flags '$(flags)'"
configure
[[ $(flags) == "-O2 -g -DNDEBUG" ]] || fail "an unset SBX_DEBUG_INFO changed the flags to '$(flags)'"
configure SBX_DEBUG_INFO=lines
[[ $(flags) == "-O2 -g1 -DNDEBUG" ]] || fail "SBX_DEBUG_INFO=lines left the flags '$(flags)'"
echo "SBX_DEBUG_INFO: lines by default, full and back when set, kept when unset, 'ful' refused"
