#!/usr/bin/env bash
# A launcher that misjudges a finished job the way Open MPI 4.x's mpirun now and
# then does (open-mpi/ompi issue 7833): it runs the real launcher
# ($SPLITC_REAL_MPIRUN) and, when that succeeded, reports a finished process as
# "exiting improperly" and exits 1. Used by mpi.launch_misjudged (CMakeLists.txt):
# splitc-run must see that every processor finalized and exited 0.
"${SPLITC_REAL_MPIRUN:?}" "$@"
status=$?
if [[ $status -ne 0 ]]; then
  exit "$status"
fi
echo "mpirun has exited due to process rank 1 with PID 0 on node $(hostname) exiting improperly." >&2
exit 1
