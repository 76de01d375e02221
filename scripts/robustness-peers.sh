#!/usr/bin/env bash
# The robustness probe side by side with two peers from PyPI, on the same
# servers: mcp-runtime-check 0.10.1 (`mcp-fuzz`: each read-only tool with
# valid, missing-required and wrong-type input) and mcp-fuzzer 0.7.0
# (generated inputs for every tool, `--mode tools`). The servers: the fake
# servers' robustness scenarios, the interop SDK servers (TypeScript v2,
# Python 2.3) and, when `scripts/setup-census.py` has installed them, the
# census's server-everything and time. Each peer runs inside `unshare -n`
# (no network: a fuzzer may call a tool that fetches what it generated);
# the guard needs no such wrapper, but gets it too, so all three see the
# same machine. Prints, per server and tool, what each found and how long
# it took.
#   bash scripts/robustness-peers.sh   (root, or a kernel that allows
#   unprivileged network namespaces; the peers install into .peers/)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
if ! unshare -n true 2>/dev/null; then
  echo "robustness-peers: unshare -n is not allowed here; the peers are not run" >&2
  exit 1
fi
if [ ! -x .peers/bin/mcp-fuzz ] || [ ! -x .peers/bin/mcp-fuzzer ]; then
  python3 -m venv .peers
  .peers/bin/pip install --quiet --disable-pip-version-check \
    mcp-runtime-check==0.10.1 mcp-fuzzer==0.7.0
fi
cargo build --release --locked --quiet
cargo build --release --locked --quiet --examples
guard=$root/target/release/mcp-stdio-guard
fake=$root/target/release/examples/fake_server
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

servers=()
for s in robust-ok robust-crash robust-hang robust-internal robust-lenient robust-bad-structured; do
  servers+=("$s|$fake $s")
done
if [ -d .interop/node2/node_modules ]; then
  servers+=("typescript-v2|env NODE_PATH=$root/.interop/node2/node_modules node $root/testdata/interop/ts2_server.cjs clean")
fi
if [ -x .interop/venv/bin/python ]; then
  servers+=("python-2.3|$root/.interop/venv/bin/python $root/testdata/interop/py_server.py clean")
fi
if [ -x .census/npm/everything/node_modules/.bin/mcp-server-everything ]; then
  servers+=("server-everything|$root/.census/npm/everything/node_modules/.bin/mcp-server-everything stdio")
fi
if [ -x .census/py/time/bin/mcp-server-time ]; then
  servers+=("server-time|$root/.census/py/time/bin/mcp-server-time")
fi

ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

printf '%-22s | %-52s | %-34s | %-34s\n' server "mcp-stdio-guard --robustness" "mcp-runtime-check (mcp-fuzz)" "mcp-fuzzer --mode tools"
for entry in "${servers[@]}"; do
  name=${entry%%|*}
  cmd=${entry#*|}
  read -r -a argv <<< "$cmd"
  # The guard passes only an allow-list of the environment: give NODE_PATH.
  gargs=()
  if [ "${argv[0]}" = env ]; then
    gargs+=(--env "${argv[1]}")
    argv=("${argv[@]:2}")
  fi
  t=$(date +%s%N)
  unshare -n "$guard" check --robustness --json --timeout 3000 "${gargs[@]}" -- "${argv[@]}" \
    > "$out/guard.json" 2>/dev/null || true
  gt=$(ms "$t")
  g=$(python3 - "$out/guard.json" <<'PY'
import json, sys
try:
    j = json.load(open(sys.argv[1]))
except Exception:
    print("no report"); sys.exit()
rb = j.get("robustness") or {}
codes = {}
for i in j.get("issues", []):
    if i.get("phase") == "robustness":
        codes[i["code"]] = codes.get(i["code"], 0) + i.get("calls", 1)
found = ", ".join(f"{c.replace('tool-', '')} x{n}" for c, n in sorted(codes.items())) or "nothing"
print(f"{rb.get('callsSent', 0)} calls: {found}")
PY
)
  t=$(date +%s%N)
  (cd "$out" && timeout 300 unshare -n "$root/.peers/bin/mcp-fuzz" --json --timeout 3 -- $cmd \
    > "$out/fuzz.json" 2>/dev/null) || true
  ft=$(ms "$t")
  f=$(python3 - "$out/fuzz.json" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception:
    print("no report"); sys.exit()
print(f"{d.get('tested_count', 0)} tools: {d.get('crash_count', 0)} crashes, {d.get('timeout_count', 0)} timeouts, grade {d.get('grade')}")
PY
)
  rm -rf "$out/fz"
  t=$(date +%s%N)
  (cd "$out" && timeout 300 unshare -n "$root/.peers/bin/mcp-fuzzer" --mode tools --protocol stdio \
    --endpoint "$cmd" --runs 4 --timeout 3 --no-network --output-dir "$out/fz" >/dev/null 2>&1) || true
  zt=$(ms "$t")
  z=$(python3 - "$out/fz" <<'PY'
import glob, json, sys
paths = glob.glob(sys.argv[1] + "/**/run_summary.json", recursive=True)
if not paths:
    print("no report"); sys.exit()
d = json.load(open(paths[0]))
cats = d.get("findings", {}).get("by_category", {})
found = ", ".join(f"{k} x{v}" for k, v in sorted(cats.items())) or "nothing"
print(f"{d.get('tools', {}).get('total', 0)} tools: {found}")
PY
)
  printf '%-22s | %-52s | %-34s | %-34s\n' "$name" "$g ($gt ms)" "$f ($ft ms)" "$z ($zt ms)"
done
