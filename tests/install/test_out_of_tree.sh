#!/usr/bin/env bash
# Issue item 3: install to a temporary prefix; build one plugin of each kind outside the
# source tree with nothing but that prefix, through find_package (one CMake project) and
# through pkg-config (one compiler command each); drop the .so files into a plugin dir;
# the installed host verifies them and runs a workflow that uses them. Args: BUILD REPO CXX.
source "$(dirname "$0")/../support/script_prelude.sh"
build=$1 repo=$2 cxx=$3
link_dir=""
trap 'rm -rf "$work" ${link_dir:+"$link_dir"}' EXIT
kinds=(executor injector stub metrics predictor)
# Fixed relative paths under $work, so ccache hits from one run of this test to the next.
export CCACHE_BASEDIR=$work
launcher=()
command -v ccache >/dev/null && launcher=(ccache)

prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 ||
    fail "cmake --install: $(cat "$work/install.log")"
host=$prefix/bin/sandbox-runner

# The installed host finds the installed plugins from any directory, and nothing else.
listed=$(cd "$work" && env -u SANDBOX_PLUGIN_DIRS HOME="$work/home" "$host" plugins list --json)
python3 - "$listed" "$prefix/lib/sandbox-runner/plugins/" <<'PY' || fail "installed plugins: $listed"
import json, sys
listed = json.loads(sys.argv[1])
ids = {p["id"] for p in listed["plugins"] if p["path"].startswith(sys.argv[2])}
assert {"local", "ema", "normal", "process_metrics", "cpu_spike"} <= ids, ids
assert not listed["refused"], listed["refused"]
PY

# A host with no plugin anywhere (what a partial install used to leave) says where it
# looked, with exit 2, rather than an empty table.
mkdir -p "$work/lone/bin"
ln "$host" "$work/lone/bin/sandbox-runner" 2>/dev/null || cp "$host" "$work/lone/bin/"
set +e
message=$(cd "$work" && env -u SANDBOX_PLUGIN_DIRS -u XDG_DATA_HOME HOME="$work/home" \
    "$work/lone/bin/sandbox-runner" plugins list 2>&1 >/dev/null)
code=$?
set -e
[[ $code -eq 2 && $message == *"no plugins found; searched "*"$work/home/.local/share/sandbox-runner/plugins"*"$work/lone/lib/sandbox-runner/plugins"* ]] ||
    fail "plugins list with no plugin: exit $code, $message"

# Every relative link of the installed docs (share/doc/sandbox-runner, the SDK's examples)
# leads to a file of the install: an installed doc cannot point into a checkout.
python3 - "$prefix" <<'PY' || fail "installed docs link to files the install does not have"
import re, sys
from pathlib import Path
prefix = Path(sys.argv[1])
docs = [*(prefix / "share/doc/sandbox-runner").glob("*.md"),
        *(prefix / "share/sandbox-runner-sdk").rglob("*.md")]
assert len(docs) > 5, docs
broken = []
for doc in docs:
    for target in re.findall(r"\]\(([^)#\s][^)\s]*)\)", doc.read_text()):
        if re.match(r"[a-z]+:", target):
            continue
        path = (doc.parent / target.split("#")[0]).resolve()
        if not path.exists() or not path.is_relative_to(prefix.resolve()):
            broken.append(f"{doc.relative_to(prefix)}: {target}")
print("\n".join(broken))
sys.exit(1 if broken else 0)
PY

# Sources: scaffolds of every kind, twice (cm_* for CMake, pc_* for pkg-config).
mkdir -p "$work/src"
echo "cmake_minimum_required(VERSION 3.16)" >"$work/src/CMakeLists.txt"
echo "project(out_of_tree C CXX)" >>"$work/src/CMakeLists.txt"
for kind in "${kinds[@]}"; do
    "$host" plugins new "$kind" "cm_$kind" "$work/src/cm_$kind" >/dev/null
    "$host" plugins new "$kind" "pc_$kind" "$work/src/pc_$kind" >/dev/null
    echo "add_subdirectory(cm_$kind)" >>"$work/src/CMakeLists.txt"
done
# A plugin whose source lost its SBX_PLUGIN(...) line: not built with the others (it must
# not link), built alone below.
mkdir -p "$work/src/no_entry"
sed '/^SBX_PLUGIN(/d' "$work/src/cm_predictor/cm_predictor.cpp" >"$work/src/no_entry/no_entry.cpp"
echo "sbx_add_plugin(no_entry KIND predictors SOURCES no_entry.cpp)" >"$work/src/no_entry/CMakeLists.txt"
echo "add_subdirectory(no_entry EXCLUDE_FROM_ALL)" >>"$work/src/CMakeLists.txt"
# The installed examples of the author guide, C++ and C, built as they are.
examples=$prefix/share/sandbox-runner-sdk/examples
for example in last_value_predictor step_count_collector; do
    [[ -f $examples/$example/CMakeLists.txt ]] || fail "example $example is not installed"
    echo "add_subdirectory(\"$examples/$example\" example_$example)" >>"$work/src/CMakeLists.txt"
done

# find_package(SandboxRunnerSDK): the prefix is all CMake is told about.
cmake -S "$work/src" -B "$work/cmake-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_COMPILER_LAUNCHER="${launcher[*]}" \
    -DCMAKE_C_COMPILER_LAUNCHER="${launcher[*]}" -DCMAKE_C_FLAGS="-Wall -Wextra -Werror" \
    -DCMAKE_CXX_FLAGS=-Werror -DCMAKE_PREFIX_PATH="$prefix" >"$work/configure.log" 2>&1 ||
    fail "configure: $(cat "$work/configure.log")"
cmake --build "$work/cmake-build" -j2 >"$work/build.log" 2>&1 || fail "build: $(cat "$work/build.log")"
# A missing entry is a link error (sbx_add_plugin links with --require-defined=sbx_entry).
if cmake --build "$work/cmake-build" --target sbx_plugin_no_entry >"$work/no-entry.log" 2>&1 ||
    ! grep -q "sbx_entry" "$work/no-entry.log"; then
    fail "a plugin without SBX_PLUGIN(...) linked with sbx_add_plugin: $(cat "$work/no-entry.log")"
fi

# pkg-config and a plain compiler command.
# pkg-config escapes a space in an -I path but not in the -Wl,--version-script path: a
# prefix whose path holds one (a checkout under "/tmp/a b") is reached through a link
# without, as docs/plugin-authors.md tells authors.
pc_prefix=$prefix
if [[ $prefix == *" "* ]]; then
    link_dir=$(mktemp -d /tmp/sbx-sdk-link-XXXXXX)
    ln -s "$prefix" "$link_dir/prefix"
    pc_prefix=$link_dir/prefix
fi
export PKG_CONFIG_PATH=$pc_prefix/share/pkgconfig
# Parsed as a shell (or make) would parse them: pkg-config writes a space in a path as "\ ".
eval "cflags=($(pkg-config --cflags sandbox-runner-sdk))"
eval "libs=($(pkg-config --libs sandbox-runner-sdk))"
# Both packages' version is the ABI of the installed header, as the build wrote it.
abi=$(sed -n 's/^#define SBX_ABI_MAJOR \([0-9]*\).*/\1/p' "$prefix/include/sbx/plugin.h").$(
    sed -n 's/^#define SBX_ABI_MINOR \([0-9]*\).*/\1/p' "$prefix/include/sbx/plugin.h")
[[ $(pkg-config --modversion sandbox-runner-sdk) == "$abi" ]] ||
    fail "pkg-config version $(pkg-config --modversion sandbox-runner-sdk), not the ABI $abi"
grep -q "PACKAGE_VERSION \"$abi\"" "$prefix/share/cmake/SandboxRunnerSDK/SandboxRunnerSDKConfigVersion.cmake" ||
    fail "the CMake package's version is not the ABI $abi"
for kind in "${kinds[@]}"; do
    (cd "$work" && "${launcher[@]}" "$cxx" -std=c++17 -O2 -shared -fPIC -Wall -Werror \
        "${cflags[@]}" "src/pc_$kind/pc_$kind.cpp" -o "pc_$kind.so" "${libs[@]}") ||
        fail "pkg-config build of pc_$kind"
done
# `pkg-config --libs` makes a missing entry a link error too.
if (cd "$work" && "$cxx" -std=c++17 -shared -fPIC "${cflags[@]}" src/no_entry/no_entry.cpp \
    -o no_entry.so "${libs[@]}") >"$work/no-entry.log" 2>&1 || ! grep -q "sbx_entry" "$work/no-entry.log"; then
    fail "a plugin without SBX_PLUGIN(...) linked with pkg-config --libs: $(cat "$work/no-entry.log")"
fi

# The examples pass verify and answer their sample requests.
"$host" plugins verify "$work/cmake-build/plugins/predictors/last_value.so" >"$work/verify.log" 2>&1 ||
    fail "verify the C++ example: $(cat "$work/verify.log")"
"$host" plugins verify "$work/cmake-build/plugins/metrics/step_count.so" >"$work/verify.log" 2>&1 ||
    fail "verify the C example: $(cat "$work/verify.log")"
answer=$("$host" plugins call "$work/cmake-build/plugins/metrics/step_count.so" \
    --request "$prefix/share/sandbox-runner-sdk/requests/metrics.collect.run.json" 2>"$work/call.log") ||
    fail "plugins call step_count: $(cat "$work/call.log")"
# The sample run request has two steps, one of them failed (RE).
[[ $answer == *'"steps_run":{"value":2,"aggregate":"max"}'* && $answer == *'"steps_failed":1'* ]] ||
    fail "step_count answered $answer"

# Dropped into one plugin dir, as a user would.
mkdir -p "$work/plugins"
cp "$work"/cmake-build/plugins/*/cm_*.so "$work"/pc_*.so "$work/plugins/"
for kind in "${kinds[@]}"; do
    for so in "$work/plugins/cm_$kind.so" "$work/plugins/pc_$kind.so"; do
        "$host" plugins verify "$so" >"$work/verify.log" 2>&1 || fail "verify $so: $(cat "$work/verify.log")"
    done
done

# A plugin built against the installed frozen ABI 1.0 header (C, one compiler command)
# loads in this host and says so.
"${launcher[@]}" cc -std=c11 -shared -fPIC -fvisibility=hidden \
    -I"$prefix/include/sandbox-runner-sdk/abi/v1.0" \
    -Wl,--version-script="$prefix/share/cmake/SandboxRunnerSDK/sbx_plugin.map" \
    "$repo/tests/abi/fixtures/frozen_v1_0_plugin.c" -o "$work/frozen_v1_0.so" ||
    fail "a plugin against the installed ABI 1.0 header does not build"
"$host" plugins verify "$work/frozen_v1_0.so" >"$work/verify.log" 2>&1 ||
    fail "verify the ABI 1.0 plugin: $(cat "$work/verify.log")"
grep -q "(predictor, ABI 1.0)" "$work/verify.log" || fail "not ABI 1.0: $(cat "$work/verify.log")"

# The host-less harness, with the SDK's installed sample requests, through the installed
# isolated-plugin host (a user's plugins run isolated).
[[ -x $prefix/libexec/sandbox-runner/sbx-plugin-host ]] || fail "sbx-plugin-host is not installed"
requests=$prefix/share/sandbox-runner-sdk/requests
"$host" plugins call "$work/plugins/cm_predictor.so" --request "$requests/predictor.predict.json" \
    >"$work/call.log" 2>&1 || fail "plugins call: $(cat "$work/call.log")"
grep -q '"method":"last_value"' "$work/call.log" || fail "plugins call answer: $(cat "$work/call.log")"
for phase in run cell; do
    "$host" plugins call "$work/plugins/pc_metrics.so" --request "$requests/metrics.collect.$phase.json" \
        >"$work/call.log" 2>&1 || fail "plugins call collect $phase: $(cat "$work/call.log")"
done
isolation=$(cd "$work" && env -u SANDBOX_PLUGIN_DIRS HOME="$work/home" "$host" --plugin-dir "$work/plugins" \
    plugins list --json)
python3 - "$isolation" <<'PY' || fail "isolation of the user's plugins: $isolation"
import json, sys
modes = {p["id"]: p["isolation"] for p in json.loads(sys.argv[1])["plugins"]}
assert modes["cm_predictor"] == "process" and modes["local"] == "in_process", modes
PY

# A workflow that uses an out-of-tree plugin of every kind but the executor (the scaffold's
# executor answers XX, "not implemented"), then the same with the scaffold executor.
for maker in cm pc; do
    cat >"$work/settings-$maker.yaml" <<YAML
plugin_dirs: [$work/plugins]
data_dir: $work/data-$maker
executor: local
stub_strategy: ${maker}_stub
injectors: [${maker}_injector]
metrics: [${maker}_metrics]
predictor: ${maker}_predictor
presets:
  - {SCENARIO_NAME: normal}
workflows:
  - id: 1
    name: out-of-tree
    steps:
      - name: hello
        run: [/bin/echo, hello]
        expect: {exit_code: 0, stdout_contains: hello}
YAML
    out=$(cd "$work" && "$host" --config "settings-$maker.yaml" run --runs 1 --json 2>"$work/run.log") ||
        fail "run with $maker plugins: $(cat "$work/run.log")"
    python3 - "$out" <<'PY' || fail "run with $maker plugins: $out"
import json, sys
cell = json.loads(sys.argv[1])["cells"][0]
assert cell["passed"] == 1 and cell["roi"] == 1.0, cell
assert cell["forecast"]["method"] == "last_value", cell  # the scaffold predictor's answer
PY
    # The text report names the predictor; the scaffold executor's XX is an error of the setup
    # (not a verdict on the target), named after the executor with its reason.
    out=$(cd "$work" && SANDBOX_EXECUTOR=${maker}_executor "$host" --config "settings-$maker.yaml" \
        run --runs 1 2>"$work/run.log") || fail "run with ${maker}_executor: $(cat "$work/run.log")"
    [[ $out == *"NEXT ROI (${maker}_predictor forecast)"* &&
        $out == *"normal: executor '${maker}_executor': not implemented (x1)"* ]] ||
        fail "the ${maker} predictor and executor were not used: $out"
done
echo "ok: installed to $prefix; ${kinds[*]} built with find_package and pkg-config, verified, run"
