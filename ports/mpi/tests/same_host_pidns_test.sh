#!/usr/bin/env bash
# The collectives' one copy between processes of one host in different pid namespaces, under
# Open MPI's own mpirun: three processes, processor 1 in a pid namespace of its own (a child of
# this one), 0 and 2 here. Processors 0 and 2 must read each other's blocks in one copy; 1 and
# either of them must stage (collective_one_copy's "pidns" mode checks each pair and the bytes
# read). One processor only: two processes in sibling namespaces both have pid 1 there, and
# Open MPI's own start-up then waits for ever (MPICH's UCX refuses even one: "Shared memory
# error"), so the udp test (ports/udp/tests) covers siblings. Open MPI's single copy, which
# names its peer by pid, is off. Exits 77 (skipped) unless `unshare --pid` works here.
#   same_host_pidns_test.sh COLLECTIVE_ONE_COPY_PROGRAM MPIRUN [MPIRUN OPTIONS...]
# (the launch command of the other mpi tests, ports/mpi/tests/CMakeLists.txt's _launch_mpi)
set -u
prog=$1
shift
launch=("$@")
skip() { echo "same_host_pidns_test: skipped: $*"; exit 77; }
fail() { echo "same_host_pidns_test: $*" >&2; exit 1; }

command -v unshare >/dev/null || skip "no unshare command"
unshare --pid --fork --kill-child true 2>/dev/null || skip "unshare --pid is not allowed here"

export SPLITC_VERBOSE=1
# Open MPI's session files in a directory of this job's own, as the suite's runner gives every
# plain mpirun (tests/programs/splitc_expect.cpp, private_session_base): the shared
# /tmp/ompi.HOST.UID is created and removed by every job, and two at once race on it.
if [[ -z ${OMPI_MCA_orte_tmpdir_base:-} ]]; then
  OMPI_MCA_orte_tmpdir_base=$(mktemp -d) || fail "cannot create a session directory"
  export OMPI_MCA_orte_tmpdir_base
  trap 'rm -rf "$OMPI_MCA_orte_tmpdir_base"' EXIT
fi
alone="unshare --pid --fork --kill-child"
out=$(timeout 100 "${launch[@]}" --mca btl_vader_single_copy_mechanism none -x SPLITC_VERBOSE \
      -np 1 "$prog" pidns : -np 1 $alone "$prog" pidns : -np 1 "$prog" pidns 2>&1)
rc=$?
echo "$out"
[[ $rc -eq 0 ]] || fail "the job failed with status $rc"
grep -q "^PASS collective_one_copy" <<<"$out" || fail "no PASS line"
# Every processor shares the host's memory with the other two: only the one copy differs.
for p in 0 1 2; do
  grep -q "processor $p of 3: mpi: shares memory with processors 0-2 (3 on this host)" <<<"$out" ||
    fail "processor $p does not share memory with processors 0-2"
done
echo "PASS same_host_pidns_test"
