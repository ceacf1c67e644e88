#!/usr/bin/env bash
# `npm test`: the whole suite. Type check, unit and integration tests (vitest,
# real SQLite / Socket.io / jupyter-server), a second vitest pass on a real
# Postgres and Redis (ARGUS_TEST_DB=postgres ARGUS_TEST_REDIS=1), then browser tests (Playwright in
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

# The same suites once more on the scale-out engines: Postgres and Redis
# (tests/helpers/test-engines.ts reads the flags; one throwaway Postgres and one
# Redis for the pass, so every Argus in it runs with DATABASE_URL and REDIS_URL).
# The HTTP, socket, agent, function and batch suites (they call every repository function through
# the public interface), the restart suite, and the database and event-log unit
# tests; no test is written twice. About 6 minutes on 2 busy cores.
shopt -s nullglob
POSTGRES_PASS=(
  lib/db/database.test.ts lib/db/batches.test.ts lib/runtime/event-log.test.ts tests/integration/restart.test.ts
  tests/integration/http-*.test.ts tests/integration/socket*.test.ts tests/integration/agents-*.test.ts
  tests/integration/functions-http.test.ts tests/integration/batches-runner.test.ts
)
shopt -u nullglob
echo "[test] vitest again on Postgres + Redis (ARGUS_TEST_DB=postgres ARGUS_TEST_REDIS=1): ${#POSTGRES_PASS[@]} files"
ARGUS_TEST_DB=postgres ARGUS_TEST_REDIS=1 node_modules/.bin/vitest run --reporter=default --reporter=json \
  --outputFile.json=test-results/vitest-postgres.json "${POSTGRES_PASS[@]}"
postgres_rc=$?

echo "[test] python (kernel-side package and sandbox)"
"${ARGUS_PYTHON:-/usr/bin/python3}" -m unittest discover -s python/tests -t python 2>&1 | tee test-results/python.txt
python_rc=${PIPESTATUS[0]}

echo "[test] playwright"
node_modules/.bin/playwright test
playwright_rc=$?

node scripts/summarize-tests.mjs test-results/vitest.json test-results/playwright.json test-results/python.txt test-results/vitest-postgres.json
if (( vitest_rc != 0 || postgres_rc != 0 || python_rc != 0 || playwright_rc != 0 )); then exit 1; fi
