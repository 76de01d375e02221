#!/usr/bin/env bash
# Builds the two release binaries and checks what the README promises:
#   - the dynamic release build (cargo build --release),
#   - the fully static glibc build (crt-static, static-pie), which runs
#     `demo` and which `file` calls statically linked,
# then leaves their paths in target/release-check.env for the size-budget
# test (tests/it/release.rs).
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --locked --quiet
RUSTFLAGS="-C target-feature=+crt-static -C link-arg=-Wl,-z,pack-relative-relocs -C link-arg=-Wl,--icf=all -C llvm-args=-inline-threshold=0" cargo build --release --locked --quiet \
  --target x86_64-unknown-linux-gnu --target-dir target/static
dynamic="$PWD/target/release/mcp-stdio-guard"
static="$PWD/target/static/x86_64-unknown-linux-gnu/release/mcp-stdio-guard"

kind=$(file -b "$static")
case "$kind" in
  *static-pie\ linked*|*statically\ linked*) echo "static binary: $kind" ;;
  *) echo "not a static binary: $kind" >&2; exit 1 ;;
esac
"$static" demo > /dev/null
echo "static binary runs demo"
printf 'MCP_GUARD_DYNAMIC_BIN=%s\nMCP_GUARD_STATIC_BIN=%s\n' "$dynamic" "$static" > target/release-check.env
ls -l "$dynamic" "$static"
