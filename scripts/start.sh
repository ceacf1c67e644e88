#!/usr/bin/env bash
# `npm start`: install what is missing, build if the sources changed, serve.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "[start] checking what Argus needs (the first run installs packages and can take a few minutes)"
bash scripts/setup.sh
echo "[start] checking the build"
bash scripts/ensure-build.sh
export NODE_ENV=production NEXT_TELEMETRY_DISABLED=1
echo "[start] starting the server (it prints its address once it listens)"
exec node --import tsx server.ts
