#!/usr/bin/env bash
# `npm test`: the whole suite. Type check, unit and integration tests (vitest,
# real SQLite / Socket.io / jupyter-server), a second vitest pass on a real
# Postgres and Redis (ARGUS_TEST_DB=postgres ARGUS_TEST_REDIS=1), the Python tests, then browser
# tests (Playwright in Debian's Chromium against the production build).
#
# Phases that share nothing run side by side (docs/testing.md): the Python tests from the moment
# setup has the kernel's Python, the checks beside the build, then the two vitest passes and
# Playwright all at once. Each one's wall-clock seconds
# go to test-results/phases.txt, and scripts/test-timings.mjs writes test-results/timings.md.
set -uo pipefail
cd "$(dirname "$0")/.."
test_start=$SECONDS
export NEXT_TELEMETRY_DISABLED=1
rm -rf test-results/vitest*.json test-results/cpu*.jsonl test-results/playwright*.json test-results/python*.* test-results/timings.md
mkdir -p test-results
: > test-results/phases.txt

# Each stream's wall-clock and CPU-seconds go to test-results/phases.txt when it ends: its CPU is
# what the stream's own subshell waited for (/proc/<subshell>/stat: cutime + cstime).
stream() {
  local name=$1 start=$SECONDS stat fields rc
  shift
  "$@"
  rc=$?
  read -r stat < /proc/$BASHPID/stat
  read -r -a fields <<< "${stat##*) }"
  local ticks=$(( fields[13] + fields[14] ))
  printf '%s\t%s\t%s.%02d\n' "$name" $((SECONDS - start)) $((ticks / 100)) $((ticks % 100)) >> test-results/phases.txt
  return $rc
}

# descendants PID
source scripts/setup-steps.sh

# The Python tests need only the kernel's Python (setup's second step), not the npm packages: they
# start as soon as that step is done, while npm installs and the build runs, which on a fresh clone
# leave a core mostly idle (the download waits on the network, a native compile takes one core).
# Two modules at a time, the slowest first, at the kernels' nice value (ARGUS_KERNEL_NICE, 10): they
# take the time setup leaves idle (one at a time, the real-photo module ran into the streams), and
# the native compile, at nice 0, keeps its core; later they never go ahead of the kernels the other
# streams' tests are waiting on.
python_ready_file=$(mktemp -u "${TMPDIR:-/tmp}/argus-python-ready.XXXXXX")
ARGUS_SETUP_PYTHON_READY_FILE=$python_ready_file bash scripts/setup.sh --test &
setup_pid=$!
while [[ ! -e $python_ready_file ]] && kill -0 $setup_pid 2>/dev/null; do sleep 1; done
python_pid=""
if [[ -e $python_ready_file ]]; then
  rm -f "$python_ready_file"
  ( stream "python" nice -n 10 node scripts/python-tests.mjs --jobs 2 ) > test-results/python-progress.txt 2>&1 &
  python_pid=$!
fi
wait $setup_pid
setup_rc=$?
if (( setup_rc != 0 )); then
  [[ -n $python_pid ]] && kill $(descendants $python_pid) 2>/dev/null
  exit $setup_rc
fi
setup_seconds=$((SECONDS - test_start))
suite_start=$SECONDS
phase_start=$SECONDS
# CPU-seconds of every child this script has waited for (/proc/<this shell>/stat: cutime + cstime, in
# ticks of 1/100 s): read with builtins, so no process of its own is counted or forked.
children_ticks() {
  local stat fields
  read -r stat < /proc/$$/stat
  read -r -a fields <<< "${stat##*) }"
  echo $(( fields[13] + fields[14] ))
}
phase_ticks=$(children_ticks)
phase_done() {
  local now
  now=$(children_ticks)
  printf '%s\t%s\t%s.%02d\n' "$1" $((SECONDS - phase_start)) $(((now - phase_ticks) / 100)) $(((now - phase_ticks) % 100)) >> test-results/phases.txt
  phase_start=$SECONDS
  phase_ticks=$now
}

echo "[test] type check and dependency rules (.dependency-cruiser.cjs), beside the build"
( node_modules/.bin/tsc --noEmit && echo "[test] type check: ok" ) > test-results/tsc.txt 2>&1 &
tsc_pid=$!
( node_modules/.bin/depcruise app components lib agents server.ts --config .dependency-cruiser.cjs --output-type err ) > test-results/depcruise.txt 2>&1 &
deps_pid=$!
bash scripts/ensure-build.sh
build_rc=$?
wait $tsc_pid; tsc_rc=$?
wait $deps_pid; deps_rc=$?
cat test-results/tsc.txt test-results/depcruise.txt
if (( build_rc != 0 || tsc_rc != 0 || deps_rc != 0 )); then
  echo "[test] stopped: build ($build_rc), type check ($tsc_rc) or dependency rules ($deps_rc) failed"
  exit 1
fi
phase_done "type check, dependency rules and build"
# The server bundle ensure-build.sh just made is current: test servers start from it (tests/helpers/argus-server.ts).
export ARGUS_TEST_SERVER_BUNDLE=1
# No Playwright traces, and screenshots only of failures (playwright.config.ts): each costs Chromium
# CPU in every test.
export ARGUS_E2E_TRACE=off ARGUS_E2E_SCREENSHOT=only-on-failure
streams_start=$SECONDS

# Everything after the build runs at once, as four streams beside the Python tests: the first vitest
# pass, the Postgres pass and Playwright (two processes). Each mostly waits (on servers, kernels, the scripted model, Chromium), and
# one after another they left a core idle half the time: side by side they keep both busy
# (docs/testing.md has the figures). They share nothing: vitest's servers listen on port 0 and live
# in their own temp dirs, the Postgres pass has its own throwaway Postgres and Redis, Playwright's
# servers have fixed ports below the kernels' ephemeral range, Python runs in subprocesses.
#

# The Postgres pass: the same suites once more on the scale-out engines, Postgres and Redis
# (tests/helpers/test-engines.ts reads the flags; one throwaway Postgres and one
# Redis for the pass, so every Argus in it runs with DATABASE_URL and REDIS_URL).
# The HTTP, socket, function and batch suites (they call every repository function through
# the public interface), the restart suite, the database and event-log unit tests, and the agent
# worlds whose runs persist, pause, resume or restart (question cards, restarts, batches, the
# update_callback stream, faults, the shared Jupyter), and ownership under pauses and restarts
# (scale-out-ownership: Postgres only, it skips in the first pass). Agent worlds about what a model writes or
# which tool it may call (dialects, habits, budgets, browsing, tool review, vqa) read and write the
# database exactly as count-coins does, so they run once; no test is written twice.
shopt -s nullglob
POSTGRES_PASS=(
  lib/engines/db/database.test.ts lib/engines/db/batches.test.ts lib/engines/db/run-fencing.test.ts lib/features/runtime/event-log.test.ts tests/integration/restart.test.ts
  tests/integration/http-*.test.ts tests/integration/socket*.test.ts
  tests/integration/agents-{count-coins,hitl,restart,run-on-all,shared-jupyter,update-callback,faults}.test.ts
  tests/integration/functions-http.test.ts tests/integration/batches-runner.test.ts
  tests/integration/scale-out-ownership.test.ts tests/integration/scale-out-resume.test.ts tests/integration/scale-out-resume-attacks.test.ts tests/integration/scale-out-resume-database.test.ts lib/engines/db/run-lease-takeover.test.ts
)
shopt -u nullglob

# The kernel and computer integration files run after the second Playwright process, which ends
# about half-way (run alone they make the first pass the one stream everything waits for).
LATE_GLOBS="tests/integration/kernels-*,tests/integration/computer-*"
# And a file of the first pass runs after the Postgres pass, in its stream, on SQLite like the rest of
# the first pass: the Postgres pass ends about 100 s before the first pass, whose last files then
# ran alone with a core partly idle.
AFTER_POSTGRES_FILES=(tests/integration/agents-dialects.test.ts)
LATE_FILES=(tests/integration/kernels-*.test.ts tests/integration/computer-*.test.ts)
echo "[test] four streams at once, beside the Python tests: vitest (2 files at a time), vitest on Postgres + Redis (${#POSTGRES_PASS[@]} files, 1 at a time), two playwright processes (the second one then the ${#LATE_FILES[@]} kernel and computer files)"
# Playwright in two processes (playwright.config.ts splits the specs into two halves of about the
# same length), each with its own servers, ports, reports and files. Their ports are fixed (below the
# kernels' ephemeral range); a second npm test on the same machine sets ARGUS_E2E_{,B_}{PORT,MODEL_PORT,NO_MODEL_PORT}.
( stream "playwright" node_modules/.bin/playwright test --project=chromium --project=dialects ) > test-results/playwright-progress.txt 2>&1 &
playwright_pid=$!
(
  ( ARGUS_E2E_MODEL_PORT=${ARGUS_E2E_B_MODEL_PORT:-4321} ARGUS_E2E_PORT=${ARGUS_E2E_B_PORT:-3227} ARGUS_E2E_NO_MODEL_PORT=${ARGUS_E2E_B_NO_MODEL_PORT:-3228} ARGUS_E2E_JSON=test-results/playwright-b.json \
    ARGUS_E2E_ARTIFACTS=test-results/playwright-artifacts-b ARGUS_E2E_FIXTURES=fixtures-b \
    stream "playwright (second process)" node_modules/.bin/playwright test --project=chromium-b ) > test-results/playwright-b-progress.txt 2>&1
  playwright_b=$?
  ( ARGUS_TEST_CPU_LOG="$PWD/test-results/cpu-late.jsonl" ARGUS_TEST_WORKERS=1 stream "vitest, kernel and computer files (after it)" \
    node_modules/.bin/vitest run --project integration --reporter=default --reporter=json --outputFile.json=test-results/vitest-late.json "${LATE_FILES[@]}" ) \
    > test-results/vitest-late-progress.txt 2>&1
  late=$?
  exit $(( playwright_b != 0 || late != 0 ))
) &
playwright_b_pid=$!
# Each file's CPU seconds (tests/helpers/cpu-probe.ts): on 2 cores the CPU, not the waiting, sets the length.
(
  ( ARGUS_TEST_CPU_LOG="$PWD/test-results/cpu-postgres.jsonl" ARGUS_TEST_DB=postgres ARGUS_TEST_REDIS=1 ARGUS_TEST_WORKERS=${ARGUS_TEST_POSTGRES_WORKERS:-1} \
    stream "vitest on Postgres + Redis" node_modules/.bin/vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest-postgres.json "${POSTGRES_PASS[@]}" ) \
    > test-results/vitest-postgres-progress.txt 2>&1
  postgres=$?
  ( ARGUS_TEST_CPU_LOG="$PWD/test-results/cpu-after-postgres.jsonl" stream "vitest, first-pass files (after the Postgres pass)" \
    node_modules/.bin/vitest run --project integration --reporter=default --reporter=json --outputFile.json=test-results/vitest-after-postgres.json "${AFTER_POSTGRES_FILES[@]}" ) \
    > test-results/vitest-after-postgres-progress.txt 2>&1
  after=$?
  exit $(( postgres != 0 || after != 0 ))
) &
postgres_pid=$!
first_pass_exclude=$LATE_GLOBS
for f in "${AFTER_POSTGRES_FILES[@]}"; do first_pass_exclude+=",$f"; done
( ARGUS_TEST_CPU_LOG="$PWD/test-results/cpu.jsonl" ARGUS_TEST_EXCLUDE="$first_pass_exclude" stream "vitest" node_modules/.bin/vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json )
vitest_rc=$?
wait $postgres_pid
postgres_rc=$?
echo "[test] vitest on Postgres + Redis"
cat test-results/vitest-postgres-progress.txt
echo "[test] vitest, first-pass files (after the Postgres pass)"
cat test-results/vitest-after-postgres-progress.txt
wait $python_pid
python_rc=$?
echo "[test] python (started during setup)"
cat test-results/python-progress.txt
wait $playwright_pid
playwright_rc=$?
wait $playwright_b_pid
playwright_b_rc=$?
echo "[test] playwright"
cat test-results/playwright-progress.txt
echo "[test] playwright (second process)"
cat test-results/playwright-b-progress.txt
echo "[test] vitest, kernel and computer files (after the second playwright process)"
cat test-results/vitest-late-progress.txt
printf '%s\t%s\n' "all streams, wall-clock" $((SECONDS - streams_start)) >> test-results/phases.txt

node scripts/summarize-tests.mjs test-results/vitest.json,test-results/vitest-late.json,test-results/vitest-after-postgres.json test-results/playwright.json,test-results/playwright-b.json test-results/python.txt test-results/vitest-postgres.json
node scripts/test-timings.mjs test-results
echo "[test] $(( (SECONDS - test_start) / 60 )) min $(( (SECONDS - test_start) % 60 )) s in all: setup ${setup_seconds} s, then $(( (SECONDS - suite_start) / 60 )) min $(( (SECONDS - suite_start) % 60 )) s; load average $(cut -d' ' -f1-3 /proc/loadavg)"
if (( vitest_rc != 0 || postgres_rc != 0 || python_rc != 0 || playwright_rc != 0 || playwright_b_rc != 0 )); then exit 1; fi
