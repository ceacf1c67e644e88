#!/usr/bin/env bash
# `npm start`: install what is missing, build if the sources changed, serve.
# Each step says how long it took, so a slow start shows where the time went.
set -euo pipefail
cd "$(dirname "$0")/.."
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
t0=$(now_ms)
echo "[start] checking what Argus needs (the first run installs packages and can take a few minutes)"
bash scripts/setup.sh
t1=$(now_ms)
echo "[start] install check: $(( t1 - t0 )) ms"
bash scripts/ensure-build.sh
t2=$(now_ms)
echo "[start] build check: $(( t2 - t1 )) ms"
export NODE_ENV=production NEXT_TELEMETRY_DISABLED=1
# The server counts its own start from here (jupyter-server, listening, the kernel pool).
export ARGUS_START_EPOCH_MS=$t0
echo "[start] starting the server (it prints its address once it listens)"
# The bundle ensure-build.sh made; tsx (transpiling at start) only if it is missing.
if [[ -f .next/argus-server.mjs ]]; then exec node .next/argus-server.mjs; fi
exec node --import tsx server.ts
