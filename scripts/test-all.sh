#!/usr/bin/env bash
# Everything CI checks, in order: system packages, a throw-away Postgres, generated code and the
# WebAssembly kernel up to date, types, import rules (.dependency-cruiser.cjs), Biome lint and formatting (biome.jsonc), then every test (node:test, one summary at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-system-packages.sh
bash scripts/postgres-start.sh
trap 'bash scripts/postgres-stop.sh >/dev/null 2>&1 || true' EXIT
npm run -s codegen:check
npm run -s build:wasm:check
npm run -s typecheck
npm run -s lint:deps
npm run -s lint
npm run -s format:check
npm test
