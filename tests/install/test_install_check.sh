#!/usr/bin/env bash
# Issue item 6: `cmake --install` of a build that is not whole copies nothing and says to
# run `cmake --build`. Proven without touching the real build (its files stay as they are):
#  1. a tiny project (no compiler: configures in a second) that uses the same
#     cmake/InstallCheck.cmake, a built file not yet built: the install fails, names the
#     file and `cmake --build`, and the prefix stays empty; once built, it installs;
#  2. the real build's install scripts: the check is the first rule that runs, and every
#     built file any install rule copies is in the list the check reads.
# Args: BUILD REPO.
source "$(dirname "$0")/../support/script_prelude.sh"
build=$1 repo=$2

# 1. The mechanism, end to end. A source file is installed before the built one, so a
#    check that did not run first would leave it in the prefix.
project="$work/tiny project"
mkdir -p "$project"
echo "from the sources" >"$project/readme.txt"
cat >"$project/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(tiny NONE)
include("$repo/cmake/InstallCheck.cmake")
sbx_install_check_first(runtime)
install(FILES readme.txt DESTINATION share/tiny COMPONENT runtime)
add_custom_command(OUTPUT built.txt COMMAND \${CMAKE_COMMAND} -E touch built.txt)
add_custom_target(built ALL DEPENDS built.txt)
install(FILES \${CMAKE_CURRENT_BINARY_DIR}/built.txt DESTINATION share/tiny COMPONENT runtime)
sbx_install_expects(COMPONENT runtime FILES \${CMAKE_CURRENT_BINARY_DIR}/built.txt)
sbx_install_check_write()
CMAKE
cmake -S "$project" -B "$work/tiny build" -G Ninja >"$work/configure.log" 2>&1 ||
    fail "configure the tiny project: $(cat "$work/configure.log")"
prefix="$work/tiny prefix"
set +e
message=$(cmake --install "$work/tiny build" --prefix "$prefix" 2>&1)
code=$?
set -e
message=$(tr -s '\n ' '  ' <<<"$message")  # CMake wraps its error text
[[ $code -ne 0 ]] || fail "an install of an unbuilt tree succeeded: $message"
[[ $message == *"tiny build/built.txt"* ]] || fail "the missing file is not named: $message"
[[ $message == *"Run \`cmake --build \"$work/tiny build\"\` first"* ]] ||
    fail "the message does not say to build first: $message"
[[ ! -e $prefix || -z $(ls -A "$prefix") ]] || fail "files were copied: $(find "$prefix")"
# Per component too.
set +e
cmake --install "$work/tiny build" --prefix "$prefix" --component runtime >/dev/null 2>&1
code=$?
set -e
[[ $code -ne 0 && ! -e $prefix ]] || fail "the component install was not stopped"
cmake --build "$work/tiny build" >/dev/null || fail "build the tiny project"
cmake --install "$work/tiny build" --prefix "$prefix" >"$work/install.log" 2>&1 ||
    fail "the install of the built tree failed: $(cat "$work/install.log")"
[[ -f $prefix/share/tiny/readme.txt && -f $prefix/share/tiny/built.txt ]] ||
    fail "the built tree was not installed: $(find "$prefix")"

# 2. The real build's install scripts (CMake writes one cmake_install.cmake per folder).
python3 - "$build" <<'PY' || fail "the real build's install check (see above)"
import re, sys
from pathlib import Path

build = Path(sys.argv[1])
top = (build / "cmake_install.cmake").read_text()
check = top.find("include(\"" + str(build / "sbx-install-expected.cmake"))
assert check >= 0, "the top cmake_install.cmake does not run the install check"
first_copy = min(i for i in (top.find("file(INSTALL"), top.find("/cmake_install.cmake\")"))
                 if i >= 0)
assert check < first_copy, "an install rule runs before the install check"

# The list the check reads: every path in the generated file under the build folder.
listed = set(re.findall(r"(/[^\n\";]+)", (build / "sbx-install-expected.cmake").read_text()))


def install_scripts(script):
    """The top script and those it includes: the install's own, not other projects' (the
    test folders under the build, this test's tiny project among them)."""
    yield script
    for sub in re.findall(r'include\("([^"]+/cmake_install\.cmake)"\)', script.read_text()):
        yield from install_scripts(Path(sub))


copied = set()
for script in install_scripts(build / "cmake_install.cmake"):
    for rule in re.findall(r"file\(INSTALL\s[^)]*\)", script.read_text()):
        if re.search(r"\sOPTIONAL\s", rule):
            continue  # e.g. the qemu guest, made only where a kernel is installed
        for path in re.findall(r'"([^"]+)"', re.split(r"\sFILES\s", rule, maxsplit=1)[1]):
            if Path(path).is_relative_to(build):
                copied.add(path)
assert copied, "no built file found in the install rules: has CMake's format changed?"
missing = sorted(copied - listed)
assert not missing, ("install rules copy built files the install check does not know; add "
                     "sbx_install_expects() beside their install(): " + ", ".join(missing))
print(f"ok: {len(copied)} built files copied by the install rules, all checked first")
PY
echo "ok: a partial build installs nothing; the real install checks every built file first"
