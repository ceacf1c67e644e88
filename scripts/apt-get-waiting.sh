#!/usr/bin/env bash
# Sourced by setup.sh: `apt_get` runs apt-get so that a busy apt (an automatic update on a fresh
# machine, another setup) is waited for instead of failing at once with "Could not get lock
# /var/lib/dpkg/lock-frontend". The wait is apt's own (DPkg::Lock::Timeout): while it waits apt
# prints "Waiting for cache lock: … held by process N (name)" every few seconds, so it never looks
# stuck. If the lock never frees, the last line says what to do.
#   ARGUS_APT_LOCK_TIMEOUT   seconds to wait for the lock (default 600)
# The test (tests/integration/setup-apt-lock.test.ts) points apt at a scratch state directory with
# APT_CONFIG, so it holds that directory's lock, never the machine's.

declare -F say >/dev/null || say() { printf '[setup] %s\n' "$*"; }

apt_get() {
  local timeout=${ARGUS_APT_LOCK_TIMEOUT:-600}
  if [[ ! "$timeout" =~ ^[0-9]+$ ]]; then
    say "ARGUS_APT_LOCK_TIMEOUT must be a whole number of seconds (it is '$timeout')."
    return 2
  fi
  local out status=0 holder
  out=$(mktemp)
  # Merged so apt's "Waiting for cache lock" (stderr) shows in order with its progress; tee keeps
  # a copy to tell a lock that never freed from any other failure. pipefail: apt's status counts.
  apt-get -o "DPkg::Lock::Timeout=${timeout}" "$@" 2>&1 | tee "$out" || status=$?
  if (( status != 0 )) && grep -q "Could not get lock" "$out"; then
    holder=$(grep -o 'held by process [0-9]* ([^)]*)' "$out" | tail -1 || true)
    say "apt is still locked after ${timeout} s${holder:+ (}${holder}${holder:+)}: another package install or an automatic update is running."
    say "Wait for it to finish (ps aux | grep -E 'apt|dpkg'), then run this again; or wait longer with ARGUS_APT_LOCK_TIMEOUT=<seconds>. Do not delete the lock files: that can break dpkg."
  fi
  rm -f "$out"
  return "$status"
}
