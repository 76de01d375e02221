#!/usr/bin/env bash
# Windows, checked on Linux: cross-builds the guard and the fake server for
# x86_64-pc-windows-gnu (Debian's rustc-web 1.96 with -Zbuild-std, MinGW as
# linker) and runs them under Wine: demo, a clean and a banner server, a
# server whose child outlives it and that ignores stdin EOF (nothing of it
# may survive the guard: Wine's processes are Linux processes, so the
# process list is read with pgrep), --timeout on a silent server, a CRLF
# server, `npx`-style PATHEXT resolution of a .cmd script, and wrap: a
# session relayed, and the wrapper killed outright with its server and the
# server's child running (the job object ends them). Then it
# type-checks x86_64-pc-windows-msvc and the macOS targets so none of them
# regresses. Installs what it needs from Debian's packages when missing.
# Its last line is "N passed, M failed"; it exits 1 when anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD

need=(rustc-web cargo-web rust-web-src gcc-mingw-w64-x86-64 wine64)
missing=()
for p in "${need[@]}"; do dpkg -s "$p" > /dev/null 2>&1 || missing+=("$p"); done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "== installing ${missing[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" > /dev/null
fi

# Debian's toolchain, by path: the rustup one on PATH has no Windows std.
cargo_web=/usr/bin/cargo
rustc_web=/usr/bin/rustc
wine=$(command -v wine64 || echo /usr/lib/wine/wine64)
wineserver=$(command -v wineserver || echo /usr/lib/wine/wineserver)
out=${WINDOWS_CHECK_DIR:-$root/target/windows-check}
mkdir -p "$out"
export RUSTC_BOOTSTRAP=1 RUSTC=$rustc_web
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
export WINEPREFIX=$out/wineprefix WINEDEBUG=-all

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && sed 's/^/     | /' "$2" | tail -20; }
began=$(date +%s)
finish() {
  "$wineserver" -k > /dev/null 2>&1 || true
  echo "windows-check took $(($(date +%s) - began)) s"
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit $?
}

echo "== cross-building for x86_64-pc-windows-gnu"
started=$(date +%s)
if ! "$cargo_web" build -q -Zbuild-std --target x86_64-pc-windows-gnu --target-dir "$out/build" \
  --bin mcp-stdio-guard --example fake_server > "$out/build.log" 2>&1; then
  fail "cross-build for x86_64-pc-windows-gnu" "$out/build.log"
  finish
fi
pass "cross-build for x86_64-pc-windows-gnu ($(($(date +%s) - started)) s)"

bin=$out/bin
mkdir -p "$bin/path"
cp "$out/build/x86_64-pc-windows-gnu/debug/mcp-stdio-guard.exe" "$bin/"
cp "$out/build/x86_64-pc-windows-gnu/debug/examples/fake_server.exe" "$bin/"
cd "$bin"
guard() { timeout 120 "$wine" mcp-stdio-guard.exe "$@"; }

if ! guard --version > "$out/version.log" 2>&1; then
  # Wine before 9 lacks bcryptprimitives.dll's ProcessPrng, which std needs.
  x86_64-w64-mingw32-gcc -shared -O2 -o bcryptprimitives.dll \
    "$root/scripts/windows/bcryptprimitives.c" -ladvapi32 -Wl,--kill-at
fi
if guard --version > "$out/version.log" 2>&1 && grep -q '^mcp-stdio-guard ' "$out/version.log"; then
  pass "the guard starts under Wine ($("$wine" --version 2>/dev/null))"
else
  fail "the guard starts under Wine" "$out/version.log"
  finish
fi

# case NAME EXPECTED_RC PATTERN -- guard arguments: one run, its exit code
# and a line its output must hold.
case_() {
  local name=$1 want=$2 pattern=$3
  shift 4
  local log="$out/${name// /-}.log" t0 rc
  t0=$(date +%s%N)
  guard "$@" > "$log" 2>&1
  rc=$?
  local ms=$((($(date +%s%N) - t0) / 1000000))
  if [ "$rc" -eq "$want" ] && grep -q -- "$pattern" "$log"; then
    pass "$name (exit $rc, $ms ms)"
  else
    fail "$name (exit $rc, wanted $want; '$pattern' in the output)" "$log"
  fi
}

# survivors MARKER: no process of the run is left (pgrep sees Wine's).
survivors() {
  if pgrep -f "$1" > "$out/survivors.log"; then
    fail "nothing of '$1' survives the guard" "$out/survivors.log"
    pkill -9 -f "$1"
  else
    pass "nothing of '$1' survives the guard"
  fi
}

case_ "demo" 0 "as expected" -- demo
case_ "a clean server passes" 0 "^PASS" -- check -- fake_server.exe ok
case_ "a banner on stdout fails" 1 "stdout-non-json" -- check -- fake_server.exe banner
marker=win-escape-$$
case_ "a server that ignores EOF and keeps a child is ended with its job" 0 "stopped by ending its job" \
  -- check --shutdown-grace 300 -- fake_server.exe escape-group "$marker"
survivors "$marker"
marker=win-grandchild-$$
case_ "a child that outlives the server is reported and killed" 0 "orphaned-processes" \
  -- check --shutdown-grace 300 -- fake_server.exe grandchild "$marker"
survivors "$marker"
marker=win-hang-$$
case_ "--timeout ends a silent server" 1 "initialize-timeout" -- check --timeout 1000 -- fake_server.exe hang "$marker"
survivors "$marker"
case_ "CRLF line endings are read as frames" 0 "^PASS" -- check -- fake_server.exe crlf

# wrap: a host's session relayed, then the wrapper killed outright while
# the server and its child run: the job ends them both.
host_in='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"h","version":"1"}}}'
wlog="$out/wrap.log"
if printf '%s\n' "$host_in" | timeout 120 "$wine" mcp-stdio-guard.exe wrap --log-dir 'Z:'"${out//\//\\}"'\wraplogs' \
  -- fake_server.exe ok > "$wlog" 2>&1 && grep -q '"serverInfo"' "$wlog"; then
  pass "wrap relays a session under Wine"
else
  fail "wrap relays a session under Wine" "$wlog"
fi
marker=win-wrap-$$
(sleep 60 | timeout 120 "$wine" mcp-stdio-guard.exe wrap --log-dir 'Z:'"${out//\//\\}"'\wraplogs' \
  -- fake_server.exe grandchild "$marker" > "$out/wrap-kill.log" 2>&1 &)
# Killed once the server's child runs: only the child's command line has
# `grandchild-hold` (the wrapper's, `timeout`'s and Wine's carry the marker
# too, so counting every match could kill the wrapper while it is still
# starting the server), and the server runs only once it is in the job.
for _ in $(seq 150); do
  pgrep -f "grandchild-hold $marker" > /dev/null && break
  sleep 0.2
done
pkill -9 -f "mcp-stdio-guard.exe wrap --log-dir .* grandchild $marker"
for _ in $(seq 100); do
  pgrep -f "fake_server.exe.*$marker" > /dev/null || break
  sleep 0.2
done
survivors "fake_server.exe.*$marker"
printf '@"%%~dp0..\\fake_server.exe" %%*\r\n' > path/fakesrv.cmd
WINEPATH='Z:'"${bin//\//\\}"'\path' case_ "a .cmd script is found through PATHEXT (npx as npx.cmd)" 0 "^PASS" \
  -- check -- fakesrv ok

cd "$root"
for target in x86_64-pc-windows-msvc x86_64-apple-darwin aarch64-apple-darwin; do
  log="$out/check-$target.log"
  if "$cargo_web" check -q -Zbuild-std=std,panic_abort --target "$target" --target-dir "$out/check" \
    --bins --examples > "$log" 2>&1 && ! grep -q '^warning' "$log"; then
    pass "type-checks for $target"
  else
    fail "type-checks for $target" "$log"
  fi
done
finish
