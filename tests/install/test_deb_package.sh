#!/usr/bin/env bash
# Issue item 1: `cpack -G DEB` makes a package that declares its library dependencies and
# holds the host, the built-in plugins, the installed settings and the SDK; extracted (not
# installed: tests touch nothing system-wide) its host finds its plugins. Args: BUILD.
source "$(dirname "$0")/../support/script_prelude.sh"
build=$1
# Each step says when it starts: a run that reaches the timeout shows where it was.
step() { echo "[${SECONDS}s] $*" >&2; }

step "cpack -G DEB (strips, reads the libraries' dependencies, compresses)"
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/pkg" >"$work/cpack.log" 2>&1 ||
    fail "cpack: $(cat "$work/cpack.log")"
step "the package's fields"
deb=$(ls "$work"/pkg/sandbox-runner_*.deb)
info=$(dpkg-deb --field "$deb" Package Version Architecture Depends)
for wanted in "Package: sandbox-runner" "Architecture: amd64" libc6 libstdc++6 libyaml-cpp \
    libsqlite3 libboost-filesystem libspdlog; do
    [[ $info == *"$wanted"* ]] || fail "the package fields lack '$wanted':"$'\n'"$info"
done

step "extract and check its files"
dpkg-deb -x "$deb" "$work/root"
usr=$work/root/usr
for file in bin/sandbox-runner lib/sandbox-runner/sbx-demo-kv \
    lib/sandbox-runner/plugins/executors/local.so lib/sandbox-runner/plugins/injectors/disk_corruption_shim.so.1 \
    share/sandbox-runner/sandbox_settings.yaml include/sbx/plugin.h include/sbx/plugin.hpp \
    share/cmake/SandboxRunnerSDK/SandboxRunnerSDKConfig.cmake share/pkgconfig/sandbox-runner-sdk.pc \
    share/man/man1/sandbox-runner.1 share/bash-completion/completions/sandbox-runner \
    share/zsh/vendor-completions/_sandbox-runner share/doc/sandbox-runner/user-guide.md; do
    [[ -e $usr/$file ]] || fail "the package lacks /usr/$file"
done
# The packaged man page and completions are those the packaged binary prints.
cmp <("$usr/bin/sandbox-runner" help --man) "$usr/share/man/man1/sandbox-runner.1" ||
    fail "the packaged man page is not the binary's"
cmp <("$usr/bin/sandbox-runner" print-completions bash) "$usr/share/bash-completion/completions/sandbox-runner" ||
    fail "the packaged bash completion is not the binary's"
grep -q "run: \[/usr/lib/sandbox-runner/sbx-demo-kv, put" "$usr/share/sandbox-runner/sandbox_settings.yaml" ||
    fail "the installed settings do not name the installed demo target"

step "the packaged host lists and verifies its plugins"
# Run from elsewhere, with no configuration: the host reads the settings and finds the
# plugins installed beside it.
listed=$(cd "$work" && env -u SANDBOX_PLUGIN_DIRS -u SANDBOX_SETTINGS_YAML HOME="$work" \
    "$usr/bin/sandbox-runner" plugins list --json)
python3 - "$listed" "$usr/lib/sandbox-runner/plugins/" <<'PY' || fail "plugins list: $listed"
import json, sys
listed = json.loads(sys.argv[1])
assert all(p["path"].startswith(sys.argv[2]) for p in listed["plugins"]), listed
ids = {p["id"] for p in listed["plugins"]}
assert {"local", "ema", "normal", "hostile", "process_metrics", "cpu_spike", "network"} <= ids, ids
assert not listed["refused"], listed["refused"]
PY
"$usr/bin/sandbox-runner" plugins verify "$usr/lib/sandbox-runner/plugins/predictors/ema.so" >/dev/null ||
    fail "verify the packaged ema.so"
echo "ok: $(basename "$deb"), $(du -k "$deb" | cut -f1) KiB"
