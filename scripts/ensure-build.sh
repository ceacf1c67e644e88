#!/usr/bin/env bash
# Runs `next build` only when the sources changed since the last build.
set -euo pipefail
cd "$(dirname "$0")/.."
src_hash=$( (find app components lib public -type f -not -name '*.test.ts' -print0 2>/dev/null | sort -z | xargs -0 sha256sum;
  sha256sum next.config.js postcss.config.mjs tsconfig.json package-lock.json) | sha256sum | cut -c1-16)
if [[ -f .next/BUILD_ID && -f .next/.argus-src-hash && "$(cat .next/.argus-src-hash)" == "$src_hash" ]]; then
  echo "[build] up to date"
  exit 0
fi
echo "[build] next build (the sources changed; about a minute)"
NEXT_TELEMETRY_DISABLED=1 node_modules/.bin/next build
echo "$src_hash" > .next/.argus-src-hash
