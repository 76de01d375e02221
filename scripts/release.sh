#!/usr/bin/env bash
# Builds the release artifacts into dist/: the fully static Linux x86_64
# binary (glibc's crt-static, as scripts/release-check.sh builds and checks
# it) packed the way cargo-binstall expects (Cargo.toml's
# [package.metadata.binstall]), each archive with a SHA-256 file, and one
# SHA256SUMS for them all:
#   dist/mcp-stdio-guard-v<version>-<target>.tar.gz
#     mcp-stdio-guard-v<version>-<target>/mcp-stdio-guard  (+ README.md, LICENSE)
#   dist/mcp-stdio-guard-v<version>-<target>.tar.gz.sha256
#   dist/SHA256SUMS
# The archive is reproducible: sorted names, owner 0, the time of the last
# commit (SOURCE_DATE_EPOCH when set). Upload dist/* to the GitHub release
# tagged v<version>; the action and cargo-binstall download from there.
#   bash scripts/release.sh
set -euo pipefail
cd "$(dirname "$0")/.."
name=mcp-stdio-guard
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)"
target=x86_64-unknown-linux-gnu
RUSTFLAGS="-C target-feature=+crt-static -C link-arg=-Wl,-z,pack-relative-relocs -C link-arg=-Wl,--icf=all -C llvm-args=-inline-threshold=0" cargo build --release --locked --quiet \
  --target "$target" --target-dir target/static
binary="target/static/$target/release/$name"
case "$(file -b "$binary")" in
  *static-pie\ linked*|*statically\ linked*) ;;
  *) echo "release: $binary is not static" >&2; exit 1 ;;
esac
stem="$name-v$version-$target"
rm -rf "dist/$stem" "dist/$stem.tar.gz" "dist/$stem.tar.gz.sha256"
mkdir -p "dist/$stem"
cp "$binary" "dist/$stem/$name"
cp README.md "dist/$stem/"
[ -f LICENSE ] && cp LICENSE "dist/$stem/"
epoch="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2> /dev/null || echo 0)}"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" \
  -C dist -czf "dist/$stem.tar.gz" "$stem"
rm -rf "dist/$stem"
(cd dist && sha256sum "$stem.tar.gz" > "$stem.tar.gz.sha256" && sha256sum ./*.tar.gz | sed 's| \./| |' > SHA256SUMS)
ls -l dist
cat "dist/$stem.tar.gz.sha256"
