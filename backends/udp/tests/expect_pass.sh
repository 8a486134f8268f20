#!/usr/bin/env bash
# Runs a job and passes only if it exits 0 and printed "PASS <name>" exactly
# once: expect_pass.sh NAME COMMAND [ARGS...]. (Output goes to a file first,
# then to the log: no process substitution to race with.)
set -u
name=$1
shift
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$@" >"$out" 2>&1
status=$?
cat "$out"
if [[ $status -ne 0 ]]; then
  echo "expect_pass: '$*' exited with status $status" >&2
  exit 1
fi
count=$(grep -cx "PASS $name" "$out")
if [[ $count -ne 1 ]]; then
  echo "expect_pass: 'PASS $name' printed $count times (processor 0 alone prints it, once)" >&2
  exit 1
fi
exit 0
