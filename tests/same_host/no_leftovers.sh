#!/usr/bin/env bash
# A job ended by SIGKILL leaves no shared-memory object behind (docs/same_host.md): the
# names in /dev/shm after the command are those before it. Runs the command given (an
# `splitc-expect failure` line that kills a processor or the launcher with SIGKILL) and compares.
# What a killed splitc-run leaves is removed by its janitor once the launcher is gone
# (src/port/external_launch.cpp), a moment after the command returns: the check waits up to
# 20 s for the names to go, and fails naming those that stay.
# ctest runs it alone (RUN_SERIAL): another job could add names meanwhile.
#   no_leftovers.sh COMMAND...
set -u
before=$(ls -A /dev/shm 2>/dev/null | sort)
"$@"
rc=$?
[[ $rc -eq 0 ]] || { echo "no_leftovers: the command failed (status $rc)" >&2; exit 1; }
for ((tick = 0; tick < 200; ++tick)); do
  after=$(ls -A /dev/shm 2>/dev/null | sort)
  new=$(comm -13 <(echo "$before") <(echo "$after"))
  [[ -z "$new" ]] && break
  sleep 0.1
done
if [[ -n "$new" ]]; then
  echo "no_leftovers: the job left in /dev/shm:" >&2
  echo "$new" >&2
  exit 1
fi
echo "PASS no_leftovers: /dev/shm holds what it held before"
