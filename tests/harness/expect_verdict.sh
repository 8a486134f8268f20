#!/usr/bin/env bash
# Checks the suite's runner itself (tests/programs/splitc_expect.cpp): runs it on a made-up job
# and requires its exit status and a line of its output (stdout and stderr) matching REGEX.
#   expect_verdict.sh STATUS REGEX RUNNER [ARGS...]
set -u
want_status=$1 regex=$2
shift 2
out=$("$@" 2>&1)
status=$?
printf '%s\n' "$out"
if [[ $status -ne $want_status ]]; then
  echo "expect_verdict: the runner exited with status $status, expected $want_status" >&2
  exit 1
fi
if ! grep -Eq -- "$regex" <<< "$out"; then
  echo "expect_verdict: no line of the runner's output matches /$regex/" >&2
  exit 1
fi
echo "expect_verdict: ok"
