# Sourced by scripts/setup.sh: which steps a setup run takes, decided in one place so the
# "step N/M" counter and the steps actually run always agree. Pure: no installs, no output
# but the list. Tested by tests/unit/setup-steps.test.ts.

# setup_wants_chromium WANT_TEST BROWSER_MODEL: Chromium is checked for the browser tests and
# whenever a browsing model is set (the browsing agent drives it).
setup_wants_chromium() { (( $1 )) || [[ -n "$2" ]]; }

# setup_steps WANT_TEST BROWSER_MODEL: the steps, one name a line, in the order setup.sh runs them.
setup_steps() {
  echo node
  echo python
  echo npm
  if setup_wants_chromium "$1" "$2"; then echo chromium; fi
  if (( $1 )); then
    echo postgres
    echo redis
    echo nginx
  fi
}

# descendants PID: PID and every process started under it, one pid a line.
descendants() {
  local p
  echo "$1"
  for p in $(pgrep -P "$1" 2>/dev/null); do descendants "$p"; done
}

# progress_detail DIR PID: what a long install under DIR is doing now, for its progress line. npm
# runs a package's install script with the package's folder as its working directory, so the
# folder names the package; a compiler under it means native code is being built from source
# (when no prebuilt binary can be downloaded: better-sqlite3 without access to GitHub), which
# alone can take minutes and otherwise looks like a hang. Else how many entries DIR holds.
progress_detail() {
  local dir=$1 pid=$2 root p cwd pkg="" compiling=0
  root=$(cd "$dir" 2>/dev/null && pwd -P) || root=""
  for p in $(descendants "$pid"); do
    cwd=$(readlink "/proc/$p/cwd" 2>/dev/null) || continue
    if [[ -n "$root" && -z "$pkg" && "$cwd" == "$root"/* ]]; then
      pkg=${cwd#"$root"/}
      if [[ "$pkg" == @* ]]; then pkg=$(cut -d/ -f1-2 <<<"$pkg"); else pkg=${pkg%%/*}; fi
    fi
    case "$(cat "/proc/$p/comm" 2>/dev/null)" in cc1 | cc1plus | cc | gcc | g++ | c++ | make) compiling=1 ;; esac
  done
  if [[ -n "$pkg" ]] && (( compiling )); then
    printf "compiling %s's native code from source (no prebuilt binary could be downloaded); this alone can take several minutes" "$pkg"
  elif [[ -n "$pkg" ]]; then
    printf "running %s's install script" "$pkg"
  else
    printf '%d entries in %s' "$(ls -A "$dir" 2>/dev/null | wc -l)" "$dir"
  fi
}

# with_progress LABEL DIR CMD...: runs CMD, and while it runs says every ARGUS_SETUP_TICK_SECONDS
# (20) how long it has taken and what it is doing (progress_detail; DIR "-" for none): npm install
# prints nothing for minutes when its output is not a terminal, nor does next build while it
# compiles. CMD's own output passes through; its status is returned. The line starts with
# "[$PROGRESS_PREFIX]" ("setup" unless set).
with_progress() {
  local label=$1 dir=$2 tick=${ARGUS_SETUP_TICK_SECONDS:-20} start=$SECONDS pid status i detail
  shift 2
  "$@" &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    # Checked every second, so the step ends as soon as CMD does, not at the next tick.
    for (( i = 0; i < tick; i++ )); do
      kill -0 "$pid" 2>/dev/null || break 2
      sleep 1
    done
    kill -0 "$pid" 2>/dev/null || break
    detail=""
    [[ "$dir" != "-" ]] && detail=", $(progress_detail "$dir" "$pid")"
    printf '[%s] %s: still working, %d s so far%s\n' "${PROGRESS_PREFIX:-setup}" "$label" $(( SECONDS - start )) "$detail"
  done
  status=0
  wait "$pid" || status=$?
  return "$status"
}
