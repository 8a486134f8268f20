#!/usr/bin/env bash
# Runs an example application (through splitc-run or mpirun) and passes only if it exits 0
# AND printed the line "PASS <name>" exactly once — the program's own verification of its
# result. Timings are never checked.  check_run.sh NAME COMMAND [ARGS...]
# The command runs under `timeout` (EXAMPLES_TIMEOUT seconds, default 110, below ctest's
# TIMEOUT of 120), so a hung job is ended by its own launcher rather than orphaned.
set -u
name=$1
shift
out=$(mktemp)
trap 'rm -f "$out"' EXIT
timeout --kill-after=5 "${EXAMPLES_TIMEOUT:-110}" "$@" > "$out" 2>&1
status=$?
cat "$out"
if [[ $status -eq 124 ]]; then
  echo "check_run: '$*' did not finish within ${EXAMPLES_TIMEOUT:-110}s" >&2
  exit 1
elif [[ $status -ne 0 ]]; then
  echo "check_run: '$*' exited with status $status" >&2
  exit 1
fi
count=$(grep -cx "PASS $name" "$out")
if [[ $count -ne 1 ]]; then
  echo "check_run: '$*' printed 'PASS $name' $count times (expected once, from processor 0)" >&2
  exit 1
fi
exit 0
