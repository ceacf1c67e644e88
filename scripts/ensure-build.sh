#!/usr/bin/env bash
# Runs `next build` only when the sources changed since the last build, and bundles the server likewise.
set -euo pipefail
cd "$(dirname "$0")/.."
src_hash=$( (find app components lib public -type f -not -name '*.test.ts' -print0 2>/dev/null | sort -z | xargs -0 sha256sum;
  sha256sum next.config.js proxy.ts postcss.config.mjs tsconfig.json package-lock.json) | sha256sum | cut -c1-16)
if [[ -f .next/BUILD_ID && -f .next/.argus-src-hash && "$(cat .next/.argus-src-hash)" == "$src_hash" ]]; then
  echo "[build] up to date"
else
  echo "[build] next build (the sources changed): one to three minutes, more on a busy machine"
  # next build is silent while it compiles (minutes on a loaded machine): say it is still working.
  # shellcheck source=setup-steps.sh
  source scripts/setup-steps.sh
  NEXT_TELEMETRY_DISABLED=1 PROGRESS_PREFIX=build with_progress "next build" - node_modules/.bin/next build
  echo "$src_hash" > .next/.argus-src-hash
fi

# The server itself (server.ts and everything it imports from lib/ and agents/) as one ES module,
# so `npm start` does not transpile a few hundred TypeScript files through tsx at every start
# (seconds on a busy machine). Packages stay external: node_modules is loaded as usual.
server_hash=$( (find lib agents -type f -name '*.ts' -not -name '*.test.ts' -print0 2>/dev/null | sort -z | xargs -0 sha256sum;
  sha256sum server.ts tsconfig.json package-lock.json) | sha256sum | cut -c1-16)
if [[ -f .next/argus-server.mjs && -f .next/.argus-server-hash && "$(cat .next/.argus-server-hash)" == "$server_hash" ]]; then
  echo "[build] server bundle up to date"
elif [[ ! -x node_modules/.bin/esbuild ]]; then
  # esbuild comes with tsx; without it the server still runs through tsx (start.sh).
  rm -f .next/argus-server.mjs .next/.argus-server-hash
  echo "[build] no esbuild: the server will run through tsx"
else
  echo "[build] bundling server.ts"
  node_modules/.bin/esbuild server.ts --bundle --platform=node --format=esm --packages=external --target=node20 \
    --outfile=.next/argus-server.mjs.tmp --log-level=warning
  mv .next/argus-server.mjs.tmp .next/argus-server.mjs
  echo "$server_hash" > .next/.argus-server-hash
fi
