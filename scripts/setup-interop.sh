#!/usr/bin/env bash
# Installs the official MCP SDKs used by tests/it/interop.rs into .interop/
# (ignored by git), at pinned versions so a registry release cannot change
# what CI checks:
#   .interop/venv    Python `mcp` 2.3.0 (dual-era: 2026-07-28 and 2025)
#   .interop/node    TypeScript SDK v1 `@modelcontextprotocol/sdk` 1.32.2 (legacy)
#   .interop/node2   TypeScript SDK v2 `@modelcontextprotocol/server` 2.4.0
#   .interop/rmcp    the rmcp 3.11.0 server of testdata/interop/rmcp_server,
#                    built here; it is never a dependency of this crate
set -euo pipefail
cd "$(dirname "$0")/.."
PY_SDK="mcp==2.3.0"
TS_V1="@modelcontextprotocol/sdk@1.32.2"
ZOD_V1="zod@3.25.76"
TS_V2="@modelcontextprotocol/server@2.4.0"
ZOD_V2="zod@4.2.1"

mkdir -p .interop/node .interop/node2 .interop/rmcp
if [ ! -x .interop/venv/bin/python ]; then
  python3 -m venv .interop/venv
fi
.interop/venv/bin/python -m pip install --quiet --disable-pip-version-check "$PY_SDK"

for dir in node node2; do
  [ -f ".interop/$dir/package.json" ] ||
    printf '{ "name": "mcp-stdio-guard-interop-%s", "private": true }\n' "$dir" > ".interop/$dir/package.json"
done
(cd .interop/node && npm install --silent --no-audit --no-fund --no-save "$TS_V1" "$ZOD_V1")
(cd .interop/node2 && npm install --silent --no-audit --no-fund --no-save "$TS_V2" "$ZOD_V2")

# The rmcp server builds in its own target directory with its own lock file.
cargo build --quiet --release \
  --manifest-path testdata/interop/rmcp_server/Cargo.toml \
  --target-dir .interop/rmcp/target
ln -sf "$PWD/.interop/rmcp/target/release/rmcp-interop-server" .interop/rmcp/server
echo "interop SDKs ready in .interop/"
