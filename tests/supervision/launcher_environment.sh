#!/usr/bin/env bash
# What splitc-run hands an MPI-style launcher (src/port/mpi_launcher.cpp), seen by a stand-in
# launcher that prints its environment instead of starting a job. Open MPI's mpirun and oshrun
# (backends mpi, shmem) get PMIx's hash store (PMIX_MCA_gds=hash), no grace before SIGKILL
# (OMPI_MCA_odls_base_sigkill_timeout=0) and their session directory in the job's private
# directory (OMPI_MCA_orte_tmpdir_base, the directory that holds vader's segments too) unless
# the user set them, and then the user's values; MPICH's Hydra (mpich) gets none of them.
#   launcher_environment.sh SPLITC_RUN_BACKEND BACKEND
set -u
if [[ ${LAUNCHER_ENVIRONMENT_ROLE:-} == launcher ]]; then  # the stand-in launcher
  env | grep -E '^(PMIX_MCA_gds|OMPI_MCA_odls_base_sigkill_timeout)=' | sed 's/^/launcher got /'
  if [[ -n ${OMPI_MCA_orte_tmpdir_base+set} ]]; then
    base=$OMPI_MCA_orte_tmpdir_base
    if [[ -d $base && $base == "${OMPI_MCA_btl_vader_backing_directory:-}" &&
          $base == */splitc-job-* ]]; then
      base="(the job's directory)"
    fi
    echo "launcher got OMPI_MCA_orte_tmpdir_base=$base"
  fi
  exit 0
fi
run=$1 backend=$2
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")  # the stand-in (executable)
case $backend in
  mpi | mpich) launcher_variable=SPLITC_MPIRUN ;;
  shmem) launcher_variable=SPLITC_OSHRUN ;;
  *) echo "launcher_environment: no MPI-style launcher for backend '$backend'" >&2; exit 2 ;;
esac
failures=0

# expect SETTINGS EXPECTED_OUTPUT: splitc-run under env SETTINGS must hand exactly that over.
expect() {
  local settings=$1 expected=$2 got
  got=$(env -u PMIX_MCA_gds -u OMPI_MCA_odls_base_sigkill_timeout -u OMPI_MCA_orte_tmpdir_base \
          -u OMPI_MCA_btl_vader_backing_directory $settings \
          LAUNCHER_ENVIRONMENT_ROLE=launcher "$launcher_variable=$self" "$run" -n 2 /bin/true 2>&1 |
        sort)
  if [[ $got == "$expected" ]]; then
    echo "ok: ${settings:-(nothing set)}"
  else
    echo "FAIL: with ${settings:-nothing set}, $backend's launcher got:"
    echo "${got:-(nothing)}"
    echo "expected:"
    echo "${expected:-(nothing)}"
    failures=$((failures + 1))
  fi
}

if [[ $backend == mpich ]]; then
  expect "" ""
  expect "PMIX_MCA_gds=ds21,hash" "launcher got PMIX_MCA_gds=ds21,hash"
else
  expect "" "launcher got OMPI_MCA_odls_base_sigkill_timeout=0
launcher got OMPI_MCA_orte_tmpdir_base=(the job's directory)
launcher got PMIX_MCA_gds=hash"
  user="PMIX_MCA_gds=ds21,hash OMPI_MCA_odls_base_sigkill_timeout=2"
  expect "$user OMPI_MCA_orte_tmpdir_base=/tmp" \
    "launcher got OMPI_MCA_odls_base_sigkill_timeout=2
launcher got OMPI_MCA_orte_tmpdir_base=/tmp
launcher got PMIX_MCA_gds=ds21,hash"
fi
if ((failures > 0)); then
  echo "launcher_environment: $failures of the checks failed on $backend"
  exit 1
fi
echo "PASS launcher environment on $backend"
