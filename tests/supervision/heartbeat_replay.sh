#!/usr/bin/env bash
# A stopped processor is reported within the silence limit even while a hostile neighbour
# replays its captured heartbeats (issue 45; heartbeat_replay.cpp, which needs root: without
# it this test is skipped, exit 77).
#   heartbeat_replay.sh REPLAYER SPLITC_EXPECT FAILURE_ARGS... -- JOB...
# Runs the replayer for longer than `splitc-expect failure`'s --within limit: a believed replay would
# keep the stopped processor "alive" past it. Fails also when the replayer replayed nothing
# (then the run proved nothing).
set -u
replayer=$1 expect=$2
shift 2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$replayer" 90 > "$out" &
pid=$!
sleep 0.3
if ! kill -0 "$pid" 2> /dev/null; then
  wait "$pid"
  rc=$?
  cat "$out"
  exit "$rc"
fi
"$expect" failure "$@"
rc=$?
kill -TERM "$pid" 2> /dev/null
wait "$pid"
cat "$out"
[[ $rc -eq 0 ]] || exit "$rc"
replayed=$(sed -n 's/.*replayed \([0-9]*\)$/\1/p' "$out")
if [[ ${replayed:-0} -eq 0 ]]; then
  echo "FAIL: no heartbeat was replayed: the run proved nothing"
  exit 1
fi
echo "PASS: the stopped processor was reported while its heartbeats were replayed"
