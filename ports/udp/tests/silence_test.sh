#!/usr/bin/env bash
# A stopped processor ends the job, with a message naming it and the silence
# it measured, and leaves no process behind; a processor that computes without
# polling for longer than the limit is not taken for silent. The limit is set
# through SPLITC_UDP_SILENCE, the former name of SPLITC_SILENCE (the same
# checks under the new name on every backend: tests/supervision). No timing
# threshold: `timeout` only keeps a hang from lasting.
#   silence_test.sh SPLITC_RUN_UDP UDP_SILENCE_PROGRAM
set -u
run=$1 prog=$2
fail() { echo "silence_test: $*" >&2; exit 1; }

start=$(date +%s%N)
out=$(SPLITC_UDP_SILENCE=2 timeout 30 "$run" -n 3 "$prog" stop 2>&1)
rc=$?
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "$out"
echo "stop: status $rc after ${elapsed_ms} ms"
[[ $rc -ne 0 && $rc -ne 124 ]] || fail "expected the job to end with a failure, got status $rc"
grep -Eq "processor 1 has been silent for [0-9.]+ s \(limit SPLITC_SILENCE=2 s\)" <<<"$out" ||
  fail "no message naming processor 1 and the limit"
sleep 0.5
if pgrep -x udp_silence >/dev/null; then
  pgrep -a -x udp_silence >&2
  fail "processes left behind"
fi

out=$(SPLITC_UDP_SILENCE=1.5 timeout 60 "$run" -n 2 "$prog" compute 4 2>&1)
rc=$?
echo "$out"
[[ $rc -eq 0 ]] || fail "a processor computing for 4 s without polling ended the job (status $rc)"
grep -qx "PASS udp_silence" <<<"$out" || fail "compute: no PASS line"
echo "PASS silence_test"
