#!/usr/bin/env bash
# The census: installs the pinned servers of testdata/census/servers.json
# into .census/ (scripts/setup-census.py), checks them all with `batch`
# (two at a time, the release binary), and compares every finding with the
# triaged table testdata/census/expected.json: a finding that is not in it
# (new, untriaged) or a triaged one that is gone fails the census, so the
# table in testdata/census/TRIAGE.md stays the truth. The results are what a
# registry would publish: .census/results.jsonl (one JSON report per server),
# .census/summary.md, .census/junit.xml.
#   bash scripts/census.sh            (.ci/run runs it when MCP_GUARD_CENSUS=1)
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/setup-census.py
cargo build --release --locked --quiet
guard="$PWD/target/release/mcp-stdio-guard"
start=$(date +%s%N)
status=0
"$guard" batch .census/mcp.json --jobs 2 --out .census/results.jsonl \
  --summary .census/summary.md --junit .census/junit.xml -- --robustness > .census/table.txt || status=$?
end=$(date +%s%N)
cat .census/table.txt
echo "census: batch exit $status in $(( (end - start) / 1000000 )) ms"
python3 - <<'PY'
import json, sys
expected = json.load(open("testdata/census/expected.json"))["servers"]
seen = {}
for line in open(".census/results.jsonl"):
    r = json.loads(line)
    name = r["batch"]["entry"]
    seen[name] = sorted({i["code"] for i in r.get("issues", [])})
problems = []
for name, codes in sorted(seen.items()):
    want = sorted(expected.get(name, []))
    if name not in expected:
        problems.append(f"{name}: not in expected.json")
    elif codes != want:
        problems.append(f"{name}: found {codes}, triaged {want}")
for name in sorted(set(expected) - set(seen)):
    problems.append(f"{name}: triaged but not checked")
found = sum(len(c) for c in seen.values())
print(f"census: {len(seen)} servers, {sum(1 for c in seen.values() if not c)} without a finding, {found} findings (distinct codes per server)")
if problems:
    print("census: the findings differ from testdata/census/expected.json (triage them in TRIAGE.md):")
    for p in problems:
        print("  " + p)
    sys.exit(1)
print("census: every finding is triaged")
PY
