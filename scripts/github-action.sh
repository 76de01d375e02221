#!/usr/bin/env bash
# The GitHub Action's logic (action.yml runs it): finds or installs the
# guard, checks the server with annotations, a job summary, JUnit and SARIF,
# and sets the step's outputs. It reads its inputs from the environment, as
# action.yml passes them, so it runs the same outside GitHub:
#   INPUT_SERVER       the server's argv, one argument per line (required)
#   INPUT_ARGS         guard options, one per line
#   INPUT_VERSION      the version to install when no guard is on PATH
#                      (default: the action's own, from its Cargo.toml)
#   INPUT_MIN_SCORE    fail under this score (0-100; default 0)
#   GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP   as GitHub sets them
#   MCP_GUARD_ACTION_PATH        the action's checkout (default: this repo)
#   MCP_GUARD_ACTION_REPOSITORY  owner/name, for the release download
# Outputs: ok, score, grade, errors, warnings, report (the JSON report's
# path), junit, sarif. Exit status: the guard's (1 when the server fails,
# 2 for a usage error), or 1 when the score is under INPUT_MIN_SCORE.
set -uo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
action_path="${MCP_GUARD_ACTION_PATH:-$here}"
temp="${RUNNER_TEMP:-${TMPDIR:-/tmp}}"
out_dir="$temp/mcp-stdio-guard"
mkdir -p "$out_dir"

fail() {
  echo "::error title=mcp-stdio-guard::$1"
  exit 2
}

[ -n "${INPUT_SERVER:-}" ] || fail "the input 'server' is required: the server's command, one argument per line"

version="${INPUT_VERSION:-}"
if [ -z "$version" ]; then
  version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$action_path/Cargo.toml" | head -n 1)"
fi

# The guard: on PATH first; else the published static binary for this
# runner, checked against its SHA-256; else built from source with cargo.
install_guard() {
  local root="$temp/mcp-stdio-guard-install"
  if [ -x "$root/bin/mcp-stdio-guard" ]; then
    echo "$root/bin/mcp-stdio-guard"
    return
  fi
  mkdir -p "$root/bin"
  local target=""
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) target="x86_64-unknown-linux-gnu" ;;
  esac
  local repo="${MCP_GUARD_ACTION_REPOSITORY:-}"
  if [ -n "$target" ] && [ -n "$repo" ] && command -v curl > /dev/null; then
    local name="mcp-stdio-guard-v$version-$target"
    local url="https://github.com/$repo/releases/download/v$version/$name.tar.gz"
    if curl -fsSL -o "$root/$name.tar.gz" "$url" \
      && curl -fsSL -o "$root/$name.tar.gz.sha256" "$url.sha256" \
      && (cd "$root" && sha256sum -c "$name.tar.gz.sha256" > /dev/null) \
      && tar -xzf "$root/$name.tar.gz" -C "$root" \
      && mv "$root/$name/mcp-stdio-guard" "$root/bin/"; then
      echo "$root/bin/mcp-stdio-guard"
      return
    fi
    echo "mcp-stdio-guard: no release binary at $url; building from source" >&2
  fi
  if [ -f "$action_path/Cargo.toml" ] && [ -z "${INPUT_VERSION:-}" ]; then
    cargo install --locked --quiet --root "$root" --path "$action_path" >&2 || fail "cargo install failed"
  else
    cargo install --locked --quiet --root "$root" mcp-stdio-guard --version "$version" >&2 || fail "cargo install failed"
  fi
  echo "$root/bin/mcp-stdio-guard"
}

if command -v mcp-stdio-guard > /dev/null; then
  guard="$(command -v mcp-stdio-guard)"
else
  guard="$(install_guard)"
fi

# One argument per line; blank lines are skipped, nothing is split further.
server=()
while IFS= read -r line; do
  line="${line%$'\r'}"
  [ -n "$line" ] && server+=("$line")
done <<< "$INPUT_SERVER"
options=()
while IFS= read -r line; do
  line="${line%$'\r'}"
  [ -n "$line" ] && options+=("$line")
done <<< "${INPUT_ARGS:-}"

min="${INPUT_MIN_SCORE:-0}"
case "$min" in
  ''|*[!0-9]*) fail "min-score must be a whole number from 0 to 100, not '$min'" ;;
esac
[ "${#min}" -le 3 ] && [ "$min" -le 100 ] || fail "min-score must be a whole number from 0 to 100, not '$min'"

report="$out_dir/report.json"
junit="$out_dir/junit.xml"
sarif="$out_dir/results.sarif"
"$guard" check --json --output "$report" --junit "$junit" --sarif "$sarif" \
  --annotations github "${options[@]}" -- "${server[@]}"
status=$?

# The outputs, read from the report (python3 is on every GitHub-hosted
# runner; jq is the fallback).
read_field() {
  if command -v python3 > /dev/null; then
    python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    v = v[k]
print(str(v).lower() if isinstance(v, bool) else v)' "$report" "$1" 2> /dev/null
  else
    jq -r ".$1" "$report" 2> /dev/null
  fi
}
if [ -s "$report" ]; then
  ok="$(read_field ok)"
  score="$(read_field score.value)"
  grade="$(read_field score.grade)"
  errors="$(read_field summary.issueCounts.error)"
  warnings="$(read_field summary.issueCounts.warning)"
else
  ok=false score=0 grade=F errors=0 warnings=0
fi

if [ "$status" -eq 0 ] && [ "${score:-0}" -lt "$min" ]; then
  echo "::error title=mcp-stdio-guard::score $score is under min-score $min"
  ok=false
  status=1
fi

if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "ok=$ok"
    echo "score=$score"
    echo "grade=$grade"
    echo "errors=$errors"
    echo "warnings=$warnings"
    echo "report=$report"
    echo "junit=$junit"
    echo "sarif=$sarif"
  } >> "$GITHUB_OUTPUT"
fi
echo "mcp-stdio-guard: ok=$ok score=$score grade=$grade errors=$errors warnings=$warnings (exit $status)"
exit "$status"
