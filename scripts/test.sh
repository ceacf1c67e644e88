#!/usr/bin/env bash
# `npm test`: the whole suite. Type check, unit and integration tests (vitest,
# real SQLite / Socket.io / jupyter-server), then browser tests (Playwright in
# Debian's Chromium against the production build).
set -uo pipefail
cd "$(dirname "$0")/.."
set -e
bash scripts/setup.sh --test
echo "[test] type check"
node_modules/.bin/tsc --noEmit
echo "[test] dependency rules (.dependency-cruiser.cjs)"
node_modules/.bin/depcruise app components lib agents server.ts --config .dependency-cruiser.cjs --output-type err
bash scripts/ensure-build.sh
set +e
export NEXT_TELEMETRY_DISABLED=1
mkdir -p test-results

echo "[test] vitest"
node_modules/.bin/vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json
vitest_rc=$?

echo "[test] python (kernel-side package and sandbox)"
"${ARGUS_PYTHON:-/usr/bin/python3}" -m unittest discover -s python/tests -t python 2>&1 | tee test-results/python.txt
python_rc=${PIPESTATUS[0]}

echo "[test] playwright"
node_modules/.bin/playwright test
playwright_rc=$?

node scripts/summarize-tests.mjs test-results/vitest.json test-results/playwright.json test-results/python.txt
if (( vitest_rc != 0 || python_rc != 0 || playwright_rc != 0 )); then exit 1; fi
