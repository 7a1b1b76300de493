#!/usr/bin/env bash
# `npm test`: every tier — unit, integration, system tests with real peers,
# browser tests in Debian chromium. Extra arguments go to vitest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-system-deps.sh
node scripts/build-if-needed.mjs
mkdir -p test-results
exec node node_modules/vitest/vitest.mjs run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json "$@"
