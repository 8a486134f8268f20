#!/usr/bin/env bash
# Runs a test program (usually through splitc-run) and passes only if it exits 0 AND printed
# the line "PASS <name>": expect_pass.sh NAME COMMAND [ARGS...]. The command runs under
# `timeout` (SPLITC_TEST_TIMEOUT seconds, default 110, below ctest's TIMEOUT of 120), so a
# hung job is ended by its own launcher (SIGTERM ends the whole job) rather than orphaned.
set -u
name=$1
shift
out=$(mktemp)
trap 'rm -f "$out"' EXIT
timeout --kill-after=5 "${SPLITC_TEST_TIMEOUT:-110}" "$@" > "$out" 2>&1
status=$?
cat "$out"
if [[ $status -eq 124 ]]; then
  echo "expect_pass: '$*' did not finish within ${SPLITC_TEST_TIMEOUT:-110}s" >&2
  exit 1
elif [[ $status -ne 0 ]]; then
  echo "expect_pass: '$*' exited with status $status" >&2
  exit 1
fi
if ! grep -qx "PASS $name" "$out"; then
  echo "expect_pass: '$*' exited 0 but did not print 'PASS $name'" >&2
  exit 1
fi
count=$(grep -cx "PASS $name" "$out")
if [[ $count -ne 1 ]]; then
  echo "expect_pass: 'PASS $name' printed $count times (processor 0 alone prints it)" >&2
  exit 1
fi
exit 0
