#!/usr/bin/env bash
# `npm run try [scenario.json]`: Argus with the scripted model, no API key or model server needed.
# Starts the scripted model (scripts/fake-llm.ts) on a free loopback port with the count-coins
# scenario (or the one named), points Argus's five roles at it, and serves Argus as `npm start`
# does. Ctrl-C stops both.
set -euo pipefail
cd "$(dirname "$0")/.."
scenario=${1:-e2e/scenarios/count-coins.json}
[[ -f "$scenario" ]] || { echo "[try] no scenario at $scenario (see e2e/scenarios/)"; exit 2; }

# fake-llm runs through tsx, which `npm install` brings: install what is missing first.
bash scripts/setup.sh
mkdir -p .argus
log=.argus/scripted-model.log
node --import tsx scripts/fake-llm.ts "$scenario" --port 0 > "$log" 2>&1 &
model_pid=$!
trap 'kill "$model_pid" 2>/dev/null || true' EXIT
url=""
# Its first line says where it listens; a scenario that does not load ends it instead.
while [[ -z "$url" ]]; do
  url=$(grep -o 'listening on http://[^,]*' "$log" | head -1 | cut -d' ' -f3 || true)
  if [[ -z "$url" ]]; then
    kill -0 "$model_pid" 2>/dev/null || { echo "[try] the scripted model did not start:"; cat "$log"; exit 1; }
    sleep 0.2
  fi
done
echo "[try] scripted model ($scenario) at $url; its requests are logged in $log"
echo "[try] once Argus says where it listens (below; the first start builds it, a few minutes), open that address,"
echo "[try] press Try an example (it attaches a photo of coins and asks how many there are), then Enter"
export OPENAI_BASE_URL="$url" OPENAI_API_KEY=scripted \
  ARGUS_MODEL_CONVERSATION=conversation ARGUS_MODEL_PLANNER=planner ARGUS_MODEL_CODER=coder \
  ARGUS_MODEL_VQA=vqa ARGUS_MODEL_JUDGE=judge
bash scripts/start.sh
