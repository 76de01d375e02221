#!/usr/bin/env bash
# What finding the protocol era costs, per server: how many processes one
# `--era auto` check starts, and its wall time (the README's Protocol eras
# table). Needs scripts/setup-interop.sh and the built fake server
# (cargo build --examples); the guard defaults to the release build.
#   bash scripts/era-cost.sh [GUARD]
set -u
R=$(cd "$(dirname "$0")/.." && pwd); I=$R/.interop
G=${1:-$R/target/release/mcp-stdio-guard}
C=$(mktemp); trap 'rm -f "$C"' EXIT
printf '#!/bin/sh\necho start >> "$SPAWN_LOG"\nexec "$@"\n' > "$C"; chmod +x "$C"
run() {
  local name=$1; shift
  local log=$(mktemp); : > $log
  local t0=$(date +%s%N)
  out=$("$G" --json --timeout 20000 --env SPAWN_LOG=$log "$@" 2>/dev/null)
  local t1=$(date +%s%N)
  local era=$(echo "$out" | python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["era"]["detected"], "(probe:", j["era"]["probe"]["outcome"] + ", fresh process:", str(j["era"]["freshProcess"]).lower() + ", ok:", str(j["ok"]).lower() + ")")' 2>/dev/null)
  printf "%-22s spawns=%s wall=%5d ms  era: %s\n" "$name" "$(wc -l < $log)" $(( (t1-t0)/1000000 )) "$era"
  rm -f $log
}
run ts-v1 --env NODE_PATH=$I/node/node_modules -- $C node $R/testdata/interop/ts_server.cjs clean
run ts-v2-dual --env NODE_PATH=$I/node2/node_modules -- $C node $R/testdata/interop/ts2_server.cjs dual
run ts-v2-modern-only --env NODE_PATH=$I/node2/node_modules -- $C node $R/testdata/interop/ts2_server.cjs modern-only
run python-2.3 --env PYTHONUNBUFFERED=1 -- $C $I/venv/bin/python $R/testdata/interop/py_server.py clean
run rmcp-default -- $C $I/rmcp/server default
run rmcp-modern-only -- $C $I/rmcp/server modern-only
run rmcp-legacy-only -- $C $I/rmcp/server legacy-only
F=$R/target/debug/examples/fake_server
run fake-silent-legacy -- $C $F legacy-silent-probe
run fake-error-legacy -- $C $F ok
run fake-plain-legacy --era legacy -- $C $F ok
run fake-modern-slow -- $C $F modern-slow
