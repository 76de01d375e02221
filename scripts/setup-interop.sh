#!/usr/bin/env bash
# Installs the official MCP SDKs used by tests/interop.rs into .interop/
# (ignored by git): the Python SDK in a venv, the TypeScript SDK with npm.
# Versions are pinned so a registry release cannot change what CI checks.
set -euo pipefail
cd "$(dirname "$0")/.."
PY_SDK="mcp==1.30.0"
TS_SDK="@modelcontextprotocol/sdk@1.32.2"
ZOD="zod@3.25.76"

mkdir -p .interop/node
if [ ! -x .interop/venv/bin/python ]; then
  python3 -m venv .interop/venv
fi
.interop/venv/bin/python -m pip install --quiet --disable-pip-version-check "$PY_SDK"

cd .interop/node
[ -f package.json ] || printf '{ "name": "mcp-stdio-guard-interop", "private": true }\n' > package.json
npm install --silent --no-audit --no-fund --no-save "$TS_SDK" "$ZOD"
echo "interop SDKs ready in .interop/"
