#!/usr/bin/env bash
# Runs one test job started through mpirun (an mpi backend, an NX or MPL port, the emulations
# on MPI) under a hard time limit and judges it.
#
#   run_mpi_job.sh pass:NAME SECONDS COMMAND...   exit 0 and "PASS NAME" printed exactly once
#                                              (SECONDS: a whole number)
#   run_mpi_job.sh fail:REGEX SECONDS COMMAND...  a non-zero exit that is not the time limit,
#                                              with output matching the extended REGEX
#
# The time limit is enforced here with timeout(1) (SIGTERM, then SIGKILL 10 s
# later) so that mpirun itself is told to end the job and leaves no process
# behind; ctest's own TIMEOUT is a little longer.
#
# The job writes straight into a file, which is printed and judged only once
# the job has ended. (It used to go through `> >(tee FILE)`: the process
# substitution is not waited for reliably, so the count could be taken while
# tee was still writing, and a job that printed its PASS line was judged to
# have printed it 0 times.)
set -u
expect=$1
seconds=$2
shift 2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
start=${EPOCHREALTIME/[.,]/}  # microseconds (bash's clock: a program costs ~10 ms of CPU here)
timeout -k 10 "$seconds" "$@" > "$out" 2>&1
status=$?
cat "$out"
# Open MPI 4.x's mpirun can misjudge a process that finalized and exited 0 ("mpirun has
# exited due to process rank N with PID 0 ... exiting improperly", exit 1): a race in its own
# bookkeeping, open-mpi/ompi issue 7833, not fixed in the 4.x series; about 1 run in 1,000-2,000
# of a one-process job, once in 8,450 runs of the repeat here. That exact report, after the
# job printed what a passing run prints, is rerun once; anything else is judged as it is.
if [[ $expect == pass:* && $status -eq 1 ]] && grep -q "with PID 0 on" "$out" &&
   grep -q "exiting improperly" "$out" && [[ $(grep -cx "PASS ${expect#pass:}" "$out") -eq 1 ]]; then
  echo "run_test: Open MPI misjudged a finished process (its issue 7833); running the job again" >&2
  start=${EPOCHREALTIME/[.,]/}
  timeout -k 10 "$seconds" "$@" > "$out" 2>&1
  status=$?
  cat "$out"
fi
end=${EPOCHREALTIME/[.,]/}
elapsed_us=$((end - start))
printf -v elapsed '%d.%d' $((elapsed_us / 1000000)) $((elapsed_us / 100000 % 10))
# 124: timeout sent SIGTERM; 137 after the limit: it had to SIGKILL (a job
# killed by SIGKILL on its own also ends with 137, but early).
if [[ $status -eq 124 ]] || { [[ $status -eq 137 ]] && ((elapsed_us >= seconds * 1000000)); }; then
  echo "run_test: '$*' did not finish within ${seconds} s (hang?)" >&2
  exit 1
fi
case $expect in
  pass:*)
    name=${expect#pass:}
    if [[ $status -ne 0 ]]; then
      echo "run_test: '$*' exited with status $status after ${elapsed} s" >&2
      exit 1
    fi
    count=$(grep -cx "PASS $name" "$out")
    if [[ $count -ne 1 ]]; then
      echo "run_test: 'PASS $name' printed $count times (expected once)" >&2
      exit 1
    fi
    ;;
  fail:*)
    regex=${expect#fail:}
    if [[ $status -eq 0 ]]; then
      echo "run_test: '$*' was expected to fail but exited 0" >&2
      exit 1
    fi
    if ! grep -Eq -- "$regex" "$out"; then
      echo "run_test: '$*' failed (status $status) without a message matching /$regex/" >&2
      exit 1
    fi
    echo "run_test: failed as expected (status $status, ${elapsed} s)"
    ;;
  *)
    echo "run_test: unknown expectation '$expect'" >&2
    exit 2
    ;;
esac
exit 0
