#!/usr/bin/env bash
# A throwaway Redis for trying several Argus instances on one machine: Debian's redis-server
# (bash scripts/setup.sh --test installs it), as the current user (root too), on loopback, its
# directory in a scratch dir, nothing persisted. Runs in the foreground; Ctrl-C stops it and
# removes the directory. The tests and bench:scale start their own (tests/helpers/redis-server.ts).
#   bash scripts/engines/redis.sh [port]      # then, per instance: REDIS_URL=redis://127.0.0.1:<port>
#                                             # and one ARGUS_CLUSTER_SECRET shared by all (openssl rand -hex 32)
set -euo pipefail
port=${1:-6390}
command -v redis-server >/dev/null || { echo "[redis] redis-server is not installed: bash scripts/setup.sh --test (or apt-get install redis-server)"; exit 1; }
dir=$(mktemp -d -t argus-redis-XXXXXX)
trap 'rm -rf "$dir"' EXIT
echo "[redis] REDIS_URL=redis://127.0.0.1:${port} (directory ${dir}; Ctrl-C stops it); give every instance the same ARGUS_CLUSTER_SECRET"
redis-server --port "$port" --bind 127.0.0.1 --dir "$dir" --save '' --appendonly no --daemonize no --protected-mode yes &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$dir"' EXIT INT TERM
wait "$pid"
