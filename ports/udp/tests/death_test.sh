#!/usr/bin/env bash
# A process that dies is noticed by the launcher and the job ends, with no
# process left; on one host (run_job) and through the spawner. No timing
# threshold: `timeout` only keeps a hang from lasting; the time is printed.
#   death_test.sh SPLITC_RUN_UDP UDP_SILENCE_PROGRAM
set -u
run=$1 prog=$2
fail() { echo "death_test: $*" >&2; exit 1; }

for label in 0 1; do
  start=$(date +%s%N)
  out=$(SPLITC_UDP_LABEL=$label timeout 30 "$run" -n 4 "$prog" die 2>&1)
  rc=$?
  elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
  echo "$out"
  echo "die (label=$label): status $rc after ${elapsed_ms} ms"
  [[ $rc -ne 0 && $rc -ne 124 ]] || fail "expected a failure status, got $rc"
  grep -Eq "processor 1 .*(killed by signal 9|status 137)" <<<"$out" || fail "the launcher did not name processor 1"
  sleep 0.3
  if pgrep -x udp_silence >/dev/null; then
    pgrep -a -x udp_silence >&2
    fail "processes left behind"
  fi
done
echo "PASS death_test"
