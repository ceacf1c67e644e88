#!/usr/bin/env bash
# `npm start`: install what is missing, build if the sources changed, serve.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/ensure-build.sh
export NODE_ENV=production NEXT_TELEMETRY_DISABLED=1
exec node --import tsx server.ts
