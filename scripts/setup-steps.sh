# Sourced by scripts/setup.sh: which steps a setup run takes, decided in one place so the
# "step N/M" counter and the steps actually run always agree. Pure: no installs, no output
# but the list. Tested by tests/unit/setup-steps.test.ts.

# setup_wants_chromium WANT_TEST BROWSER_MODEL: Chromium is checked for the browser tests and
# whenever a browsing model is set (the browsing agent drives it).
setup_wants_chromium() { (( $1 )) || [[ -n "$2" ]]; }

# setup_steps WANT_TEST BROWSER_MODEL: the steps, one name a line, in the order setup.sh runs them.
setup_steps() {
  echo node
  echo npm
  echo python
  if setup_wants_chromium "$1" "$2"; then echo chromium; fi
  if (( $1 )); then
    echo postgres
    echo redis
    echo nginx
  fi
}

# with_progress LABEL DIR CMD...: runs CMD, and while it runs says every ARGUS_SETUP_TICK_SECONDS
# (20) how long it has taken and how many entries DIR holds (npm install prints nothing for minutes
# when its output is not a terminal). CMD's own output passes through; its status is returned.
with_progress() {
  local label=$1 dir=$2 tick=${ARGUS_SETUP_TICK_SECONDS:-20} start=$SECONDS pid status i
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
    printf '[setup] %s: still working, %d s so far, %d entries in %s\n' "$label" $(( SECONDS - start )) "$(ls -A "$dir" 2>/dev/null | wc -l)" "$dir"
  done
  status=0
  wait "$pid" || status=$?
  return "$status"
}
