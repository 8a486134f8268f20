#!/usr/bin/env bash
# splitc-run --backend mpi cleans up after the job it started even when mpirun itself is
# killed: Open MPI's shared-memory segments (which it leaves in /dev/shm when killed) live in
# the job's private directory, which must exist with segments in it while the job runs and be
# gone afterwards; splitc-run exits 128 + 9 and no process of the job is left. Then the same
# with splitc-run killed: mpirun ends the job, and the rank supervisors remove the directory.
# splitc-run gives Open MPI's daemon no SIGTERM grace before its SIGKILL
# (OMPI_MCA_odls_base_sigkill_timeout=0, so that a job ends at once when one process dies)
# unless the user set one: the second job runs with the user's 2, which mpirun must see.
#   mpirun_killed.sh SPLITC_RUN_MPI SV_PROBE   (sv_probe hold waits to be killed)
set -u
run=$1 prog=$2
fail() { echo "mpirun_killed: FAIL: $*" >&2; exit 1; }
outs=()
trap 'rm -f "${outs[@]}"' EXIT

for victim in mpirun splitc-run; do
  # A fresh file per job: the shell truncates a reused one only once the job has started, so
  # the readiness check could read the previous job's "job ready".
  out=$(mktemp)
  outs+=("$out")
  tag="mpirun-killed-$$-$RANDOM$RANDOM"
  grace=()
  expect_grace=0
  if [[ $victim == splitc-run ]]; then
    grace=(OMPI_MCA_odls_base_sigkill_timeout=2)
    expect_grace=2
  fi
  env "${grace[@]}" SPLITC_TEST_TAG=$tag timeout --kill-after=5 60 "$run" -n 3 "$prog" hold \
    > "$out" 2>&1 &
  job=$!
  for _ in $(seq 600); do
    grep -q "job ready" "$out" && break
    kill -0 "$job" 2>/dev/null || break
    sleep 0.05
  done
  if ! grep -q "job ready" "$out"; then
    cat "$out"
    kill -0 "$job" 2>/dev/null && fail "the job did not start within 30 s"
    wait "$job"
    fail "the job ended (status $?) before it was ready"
  fi
  # timeout's child is splitc-run; splitc-run's child is mpirun.
  splitc_run=$(pgrep -P "$job" | head -n 1)
  mpirun=$(pgrep -P "$splitc_run" | head -n 1)
  [[ -n $mpirun ]] || fail "found no mpirun under splitc-run ($splitc_run)"
  dir=$(tr '\0' '\n' < "/proc/$mpirun/environ" | sed -n 's/^OMPI_MCA_btl_vader_backing_directory=//p')
  [[ -n $dir && -d $dir ]] || fail "mpirun has no private vader directory ('$dir')"
  ls "$dir" | grep -q vader_segment || fail "no vader segment in $dir: $(ls "$dir")"
  given=$(tr '\0' '\n' < "/proc/$mpirun/environ" |
             sed -n 's/^OMPI_MCA_odls_base_sigkill_timeout=//p')
  [[ $given == "$expect_grace" ]] ||
    fail "mpirun's SIGTERM grace is '$given', expected $expect_grace"
  if [[ $victim == mpirun ]]; then
    echo "mpirun_killed: kill -9 mpirun ($mpirun); its segments are in $dir"
    kill -9 "$mpirun"
  else
    echo "mpirun_killed: kill -9 splitc-run ($splitc_run); the segments are in $dir"
    kill -9 "$splitc_run"
  fi
  wait "$job"
  rc=$?
  cat "$out"
  echo "mpirun_killed: splitc-run exited with status $rc"
  [[ $rc -eq 137 ]] || fail "status $rc, expected 137 (128 + SIGKILL)"
  if [[ $victim == mpirun ]]; then
    grep -q "splitc-run: [^ ]*mpirun[.a-z]* was killed by signal 9" "$out" ||
      fail "splitc-run did not say mpirun was killed"
  fi
  # The job's processes carry our tag in their environment.
  for _ in $(seq 100); do
    left=$(grep -lzx -- "SPLITC_TEST_TAG=$tag" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3)
    [[ -z $left && ! -e $dir ]] && break
    sleep 0.1
  done
  [[ -z $left ]] || fail "processes left: $left"
  [[ ! -e $dir ]] || fail "$dir is left behind: $(ls "$dir")"
done
echo "PASS mpirun_killed"
