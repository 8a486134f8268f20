#!/usr/bin/env bash
# Runs a program (usually through splitc-run) and passes only if it exits 0 AND printed what
# is expected:
#   expect_output.sh REGEX COMMAND [ARGS...]        a line matching the extended REGEX (the
#                                                   benches' smoke runs, which report rather
#                                                   than test)
#   expect_output.sh --line TEXT COMMAND [ARGS...]  the line TEXT, exactly once (a test's
#                                                   "PASS <name>", which processor 0 alone
#                                                   prints: expect_pass.sh)
# ctest's PASS_REGULAR_EXPRESSION alone would ignore the exit status. The command runs under
# `timeout` (SPLITC_TEST_TIMEOUT seconds, default 110, below ctest's TIMEOUT of 120), so a hung
# job is ended by its own launcher (SIGTERM ends the whole job) rather than orphaned.
set -u
line=""
if [[ $1 == --line ]]; then
  line=$2
  shift 2
else
  regex=$1
  shift
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
timeout --kill-after=5 "${SPLITC_TEST_TIMEOUT:-110}" "$@" > "$out" 2>&1
status=$?
cat "$out"
if [[ $status -eq 124 ]]; then
  echo "expect_output: '$*' did not finish within ${SPLITC_TEST_TIMEOUT:-110}s" >&2
  exit 1
elif [[ $status -ne 0 ]]; then
  echo "expect_output: '$*' exited with status $status" >&2
  exit 1
fi
if [[ -n $line ]]; then
  # Counted by bash itself: a grep costs ~10 ms of CPU here (docs/running.md, "The harness's own
  # cost").
  count=0
  while IFS= read -r printed || [[ -n $printed ]]; do
    [[ $printed == "$line" ]] && count=$((count + 1))
  done < "$out"
  if [[ $count -ne 1 ]]; then
    echo "expect_output: '$*' exited 0 but printed '$line' $count times (once expected)" >&2
    exit 1
  fi
elif ! grep -Eq -- "$regex" "$out"; then
  echo "expect_output: '$*' exited 0 but printed no line matching /$regex/" >&2
  exit 1
fi
exit 0
