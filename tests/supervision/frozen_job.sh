#!/usr/bin/env bash
# A job frozen whole and thawed goes on: what a paused virtual machine, a suspended job or a
# host that keeps every process off the CPU for seconds does is not any processor's silence
# (the watchdog counts silence only while its watcher could listen).
#   frozen_job.sh SECONDS JOB... sv_probe hold_until
# Starts JOB with a file name appended (sv_probe's hold_until), waits for "job ready", stops
# every process of the job (the launcher's whole tree) for SECONDS, continues them, lets the
# job run 3 s more (six of the watchdog's ticks under SPLITC_SILENCE=2), then creates the file:
# the job must end by itself with status 0, PASS once, and no verdict.
set -u
seconds=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
out=$dir/out
timeout --kill-after=5 "${SPLITC_TEST_TIMEOUT:-110}" "$@" "$dir/done" > "$out" 2>&1 &
job=$!
for _ in $(seq 600); do
  grep -q "job ready" "$out" && break
  kill -0 "$job" 2> /dev/null || break
  sleep 0.1
done
if ! grep -q "job ready" "$out"; then
  cat "$out"
  echo "FAIL: the job did not become ready"
  kill -TERM "$job" 2> /dev/null
  exit 1
fi
# The job's processes: everything below the timeout that runs it.
tree=$job
frontier=$job
while [[ -n $frontier ]]; do
  children=$(ps -eo pid=,ppid= | awk -v p=" $frontier " 'index(p, " " $2 " ") { print $1 }' | tr '\n' ' ')
  tree="$tree $children"
  frontier=$(echo $children)
done
kill -STOP $tree 2> /dev/null
sleep "$seconds"
kill -CONT $tree 2> /dev/null
sleep 3
alive=yes
kill -0 "$job" 2> /dev/null || alive=no
touch "$dir/done"
wait "$job"
status=$?
cat "$out"
echo "frozen_job: $(echo $tree | wc -w) processes stopped for $seconds s; still running 3 s after: $alive; status $status"
if [[ $alive != yes || $status -ne 0 ]]; then
  echo "FAIL: the job did not outlive its freeze"
  exit 1
fi
if grep -q "silent for" "$out"; then
  echo "FAIL: a verdict of silence after the freeze"
  exit 1
fi
if [[ $(grep -cx "PASS sv_probe" "$out") -ne 1 ]]; then
  echo "FAIL: the job did not pass once"
  exit 1
fi
echo "PASS: a job frozen whole for $seconds s went on and passed"
