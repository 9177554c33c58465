#!/usr/bin/env bash
# Installs the Debian packages the test suite drives for real: Chromium (docs-site browser tests);
# curl, python3 and golang-go (the docs site's call snippets, run against a live node); python3,
# golang-go, cargo and the serde crates (test/sdk: quicktype's Python, Go and Rust types, built
# offline against Debian's packaged crates in /usr/share/cargo/registry).
# Idempotent: does nothing when they are already there. Needs root (CI and these machines run as root).
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v curl >/dev/null 2>&1 || need+=(curl)
command -v python3 >/dev/null 2>&1 || need+=(python3)
command -v go >/dev/null 2>&1 || need+=(golang-go)
command -v cargo >/dev/null 2>&1 || need+=(cargo)
for crate in serde serde-json serde-derive; do
  dpkg -s "librust-${crate}-dev" >/dev/null 2>&1 || need+=("librust-${crate}-dev")
done
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "missing Debian packages: ${need[*]} (run as root, or: sudo apt-get install -y ${need[*]})" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
