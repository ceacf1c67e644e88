#!/usr/bin/env bash
# Installs whatever Argus is missing, and nothing that is already there.
#   bash scripts/setup.sh          # what `npm start` needs
#   bash scripts/setup.sh --test   # plus Chromium for the browser tests, redis-server and nginx for the scale-out tests
# npm packages: `npm install` (pinned by package-lock.json) when node_modules is missing or stale.
# Python for the kernels: Debian/Ubuntu packages through apt when running as root,
# otherwise a virtualenv in .argus/venv installed with pip.
set -euo pipefail
cd "$(dirname "$0")/.."

want_test=0
[[ "${1:-}" == "--test" ]] && want_test=1

say() { printf '[setup] %s\n' "$*"; }
# setup_steps, setup_wants_chromium, with_progress
source scripts/setup-steps.sh
browser_model=${ARGUS_MODEL_BROWSER:-}
# Numbered step lines, so a first run that takes minutes never looks stuck; the count comes from
# the same list that decides which steps run.
total_steps=$(setup_steps "$want_test" "$browser_model" | wc -l)
step_no=0
step() { step_no=$(( step_no + 1 )); say "step ${step_no}/${total_steps}: $*"; }
is_root() { [[ "$(id -u)" == "0" ]]; }
# apt_get: apt-get that waits for a busy apt's lock (ARGUS_APT_LOCK_TIMEOUT) and says what to do if it never frees.
source scripts/apt-get-waiting.sh
have_apt() { command -v apt-get >/dev/null 2>&1; }

# --- Node ------------------------------------------------------------------
step "checking Node"
node_major=$(node -p 'process.versions.node.split(".")[0]')
if (( node_major < 20 )); then
  say "Argus needs Node >= 20 (found $(node --version))."; exit 1
fi
say "Node $(node --version): ok"

# --- System packages through apt (root on Debian/Ubuntu) --------------------
APT_UPDATED=0
apt_install() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  if (( ${#missing[@]} == 0 )); then
    say "system packages: all $# present"
    return 0
  fi
  say "installing ${#missing[@]} system package(s) with apt: ${missing[*]}"
  say "the first time this takes a few minutes; apt's own progress follows"
  say "if another apt is running (an automatic update on a fresh machine), this waits for it, up to ${ARGUS_APT_LOCK_TIMEOUT:-600} s (ARGUS_APT_LOCK_TIMEOUT)"
  if (( APT_UPDATED == 0 )); then
    say "apt-get update (fetching the package lists)"
    apt_get update -q
    APT_UPDATED=1
  fi
  say "apt-get install (downloading, unpacking and setting up, with their dependencies)"
  DEBIAN_FRONTEND=noninteractive apt_get install -y -q --no-install-recommends -o Dpkg::Use-Pty=0 "${missing[@]}"
  say "apt-get install: done"
}

PY_MODULES="jupyter_server, ipykernel, numpy, cv2, PIL, matplotlib, skimage, nbformat"
# Importing them all takes seconds (cv2, scikit-image, matplotlib), so a success is
# remembered in .argus/python-ready, keyed by what an install would change: the
# interpreter, dpkg's database and the venv's site-packages. Any change checks again.
python_key() {
  local py=$1 real site
  real=$(readlink -f "$(command -v "$py" || echo "$py")" 2>/dev/null || echo "$py")
  site=$(ls -d "$(dirname "$py")"/../lib/python3*/site-packages 2>/dev/null | head -1 || true)
  printf '%s|%s|%s|%s|%s' "$py" "$(stat -c %Y "$real" 2>/dev/null)" "$(stat -c %Y /var/lib/dpkg/status 2>/dev/null)" \
    "$([[ -n "$site" ]] && stat -c %Y "$site" 2>/dev/null)" "$PY_MODULES" | sha256sum | cut -c1-16
}
python_ready() {
  local stamp=.argus/python-ready key
  key=$(python_key "$1")
  [[ -f "$stamp" ]] && grep -qx "$key" "$stamp" && return 0
  "$1" -c "import $PY_MODULES" >/dev/null 2>&1 || return 1
  mkdir -p .argus && echo "$key" >> "$stamp"
}

APT_PACKAGES=(jupyter-server python3-ipykernel python3-numpy python3-opencv opencv-data python3-pil
  python3-matplotlib python3-skimage python3-nbformat python3-pyzbar python3-jupyter-client
  tesseract-ocr tesseract-ocr-eng bubblewrap)

step "checking the kernel's Python packages (jupyter, numpy, opencv, scikit-image…)"
if is_root && have_apt; then
  apt_install "${APT_PACKAGES[@]}"
  python_ready /usr/bin/python3 || { say "Debian's python3 still lacks: $PY_MODULES"; exit 1; }
  say "kernel Python: ready (/usr/bin/python3)"
elif python_ready /usr/bin/python3; then
  say "kernel Python: ready (/usr/bin/python3)" # a machine that already has the packages
else
  venv=.argus/venv
  if ! python_ready "$venv/bin/python"; then
    say "not root on Debian/Ubuntu: installing the kernel's Python packages into $venv with pip"
    say "the first time this takes a few minutes; pip's own progress follows"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --progress-bar off jupyter-server ipykernel numpy opencv-python-headless pillow \
      matplotlib scikit-image nbformat pyzbar jupyter-client
  fi
  say "kernel Python: ready ($venv)"
  command -v tesseract >/dev/null || say "warning: tesseract is not installed; OCR tools will be unavailable"
  command -v bwrap >/dev/null || say "warning: bubblewrap is not installed; kernels will run without a filesystem sandbox, and browsing is off"
fi

# ARGUS_SETUP_PYTHON_READY_FILE: npm test starts the Python tests, which need only this Python,
# while the npm packages install (scripts/test.sh).
if [[ -n "${ARGUS_SETUP_PYTHON_READY_FILE:-}" ]]; then : > "$ARGUS_SETUP_PYTHON_READY_FILE"; fi

# --- npm packages ------------------------------------------------------------
step "checking npm packages"
lock_hash=$(sha256sum package-lock.json package.json | sha256sum | cut -c1-16)
if [[ ! -f node_modules/.argus-lock-hash || "$(cat node_modules/.argus-lock-hash)" != "$lock_hash" ]]; then
  # Not `npm ci`: npm records only this platform's optional packages (tailwind's
  # and sharp's native builds) in the lock, and `npm ci` then refuses the lock.
  say "installing npm packages (pinned by package-lock.json); the first time this takes a few minutes"
  # npm shows no progress when its output is not a terminal: with_progress says it is still working.
  # JOBS=max: node-gyp compiles a native module (better-sqlite3, when no prebuilt binary can be
  # downloaded) with every core instead of one.
  JOBS=max with_progress "npm install" node_modules npm install --no-audit --no-fund --foreground-scripts
  echo "$lock_hash" > node_modules/.argus-lock-hash
else
  say "npm packages: up to date"
fi

# --- Chromium for the browser tests and the browsing agent ------------------
if setup_wants_chromium "$want_test" "$browser_model"; then
  step "checking Chromium (browser tests, browsing agent)"
  if [[ -x /usr/bin/chromium ]]; then
    say "Chromium: /usr/bin/chromium"
  else
    if is_root && have_apt; then
      apt_install chromium fonts-liberation
    else
      say "the browser tests and the browsing agent need Debian's chromium at /usr/bin/chromium (sudo apt-get install chromium)"; exit 1
    fi
  fi
fi
# --- PostgreSQL for the test suite's second engine pass (ARGUS_TEST_DB=postgres)
if (( want_test )); then
  step "checking PostgreSQL (tests against the Postgres engine)"
  if [[ -x /usr/lib/postgresql/15/bin/postgres ]] || compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null; then
    say "PostgreSQL: $(ls -d /usr/lib/postgresql/*/bin | head -1)"
  elif is_root && have_apt; then
    apt_install postgresql
  else
    say "the Postgres test pass needs Debian's postgresql package (sudo apt-get install postgresql)"; exit 1
  fi
fi
# --- Redis for the scale-out tests (two instances sharing one Socket.io stream) ---
if (( want_test )); then
  step "checking redis-server (scale-out tests)"
  if command -v redis-server >/dev/null 2>&1; then
    say "redis-server: $(command -v redis-server)"
  elif is_root && have_apt; then
    # The tests start their own redis-server on a free loopback port; Debian's service is not used.
    apt_install redis-server
  else
    say "warning: redis-server is not installed (sudo apt-get install redis-server); the scale-out tests will be skipped"
  fi
fi
# --- nginx for the scale-out tests that run through deploy/nginx.conf itself ---
if (( want_test )); then
  step "checking nginx (scale-out tests through deploy/nginx.conf)"
  if command -v nginx >/dev/null 2>&1 || [[ -x /usr/sbin/nginx ]]; then
    say "nginx: $(command -v nginx || echo /usr/sbin/nginx)"
  elif is_root && have_apt; then
    # The tests start nginx themselves, as this user, in a scratch directory; Debian's service is not used.
    apt_install nginx-light
  else
    say "warning: nginx is not installed (sudo apt-get install nginx-light); the load-balancer tests will be skipped"
  fi
fi
say "ready"
