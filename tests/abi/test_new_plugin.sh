#!/usr/bin/env bash
# `sandbox-runner plugins new` (what tools/new-plugin calls) end to end: each kind
# generates, builds warning-free (one cmake configure), passes `plugins verify`, answers
# through the ABI, is listed with its kind. The projects find the SDK as installed
# (find_package), here in a temporary prefix. Args: HOST CXX REPO BUILD.
source "$(dirname "$0")/../support/script_prelude.sh"
host=$1 cxx=$2 repo=$3 build=$4
kinds=(executor injector stub metrics predictor)

# Bad arguments are refused with exit 2 and write nothing.
set +e
"$host" plugins new nosuchkind x "$work/bad" 2>/dev/null
[[ $? -eq 2 && ! -e $work/bad ]] || fail "unknown KIND not refused with exit 2"
"$host" plugins new stub Bad-Name "$work/bad" 2>/dev/null
[[ $? -eq 2 && ! -e $work/bad ]] || fail "bad NAME not refused with exit 2"
message=$("$host" plugins new stub 2>&1)
[[ $? -eq 2 && $message == *"needs KIND and NAME"* ]] || fail "a missing NAME not refused: $message"
mkdir "$work/taken"
message=$("$host" plugins new stub taken "$work/taken" 2>&1)
[[ $? -eq 2 && $message == *"already exists"* && -z $(ls -A "$work/taken") ]] ||
    fail "existing DIR not refused: $message"
set -e

cmake --install "$build" --prefix "$work/prefix" --component sdk >/dev/null

# One parent project pays the cmake configure once for all five generated projects.
echo "cmake_minimum_required(VERSION 3.16)" >"$work/CMakeLists.txt"
echo "project(all_generated CXX)" >>"$work/CMakeLists.txt"
for kind in "${kinds[@]}"; do
    "$host" plugins new "$kind" "gen_$kind" "$work/gen_$kind" >/dev/null
    echo "add_subdirectory(gen_$kind)" >>"$work/CMakeLists.txt"
done
# XDG_DATA_HOME set (with a space in it): `cmake --install` must honour it, as the host does.
data_home="$work/xdg data"
XDG_DATA_HOME=$data_home cmake -S "$work" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_FLAGS=-Werror -DCMAKE_PREFIX_PATH="$work/prefix" >"$work/configure.log" 2>&1 ||
    fail "configure: $(cat "$work/configure.log")"
cmake --build "$work/build" -j2 >"$work/build.log" 2>&1 || fail "build: $(cat "$work/build.log")"

listed=$("$host" --plugin-dir "$work/build/plugins" plugins list --json 2>/dev/null)
for kind in "${kinds[@]}"; do
    so=$(find "$work/build/plugins" -name "gen_$kind.so")
    [[ -n $so ]] || fail "no gen_$kind.so was built"
    "$host" plugins verify "$so" >/dev/null || fail "plugins verify $so"
    python3 "$(dirname "$0")/call_generated_plugin.py" "$so" "$kind" || fail "calling $so"
    python3 - "$listed" "gen_$kind" "$kind" <<'EOF' || fail "gen_$kind not listed as a $kind"
import json, sys
plugins = json.loads(sys.argv[1])["plugins"]
sys.exit(0 if any(p["id"] == sys.argv[2] and p["kind"] == sys.argv[3] for p in plugins) else 1)
EOF
done

# `cmake --install` of the generated projects puts each .so in the user plugin dir the host
# computes from XDG_DATA_HOME, where the host finds it without --plugin-dir.
cmake --install "$work/build" >"$work/install.log" 2>&1 || fail "install: $(cat "$work/install.log")"
listed=$(XDG_DATA_HOME=$data_home "$host" plugins list --json 2>/dev/null)
python3 - "$listed" "$data_home/sandbox-runner/plugins/" "${kinds[@]}" <<'EOF' ||
import json, sys
found = {p["id"]: p["path"] for p in json.loads(sys.argv[1])["plugins"]}
for kind in sys.argv[3:]:
    path = found.get("gen_" + kind, "")
    assert path.startswith(sys.argv[2]), f"gen_{kind}: {path or 'not found'}"
EOF
    fail "the installed plugins are not in \$XDG_DATA_HOME/sandbox-runner/plugins: $listed"
echo "ok: ${kinds[*]}"
