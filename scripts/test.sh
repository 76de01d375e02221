#!/usr/bin/env bash
# The test command (README.md): installs what the tests need, then runs
# every tier. On a fresh machine it installs, each once and pinned:
#   - the official SDK servers the interop tests run (scripts/setup-interop.sh:
#     Python `mcp`, the TypeScript SDKs, the rmcp server),
#   - the CI-ecosystem tools and schemas (scripts/setup-tools.sh),
#   - Chromium, for the browser tests of the report card and fleet page
#     (Debian's package; root, or sudo, is needed for that one),
#   - the release binaries the size test measures (scripts/release-check.sh).
# A test whose tool is still missing fails with the fix; none is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d "$HOME/.cargo/bin" ] && export PATH="$HOME/.cargo/bin:$PATH"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
started=$(date +%s)

echo "== the SDK servers for the interop tests"
bash scripts/setup-interop.sh

echo "== the CI-ecosystem tools (check-jsonschema, pre-commit, xmlschema, the SARIF and JUnit schemas)"
bash scripts/setup-tools.sh

echo "== Chromium, for the browser tests"
if ! command -v chromium > /dev/null; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium > /dev/null
  elif command -v sudo > /dev/null; then
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium > /dev/null
  else
    echo "chromium is missing and this user cannot install it: apt-get install chromium (as root)" >&2
    exit 1
  fi
fi

echo "== the release binaries (dynamic, and fully static), for the size test"
command -v file > /dev/null || {
  if [ "$(id -u)" = 0 ]; then apt-get install -y -qq file > /dev/null; else sudo apt-get install -y -qq file > /dev/null; fi
}
bash scripts/release-check.sh

echo "== cargo test, every tier (the interop, browser and long tests included)"
cargo test --locked --no-fail-fast -- --include-ignored

echo "== the test command took $(( $(date +%s) - started )) s"
