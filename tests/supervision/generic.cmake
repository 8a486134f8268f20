# The job's supervision on one backend at a time (included by splitc_add_backend_tests,
# cmake/SplitcTests.cmake), through the backend's launcher (label "supervision"): a stopped
# processor, an early _exit(0), a long computation that is not silence (the liveness
# watchdog, include/splitc/port/watchdog.hpp).
# A short silence limit keeps the failing runs fast; the passing run computes for longer
# than its limit.
# a TEST_VEHICLE is supervised as its transport; a flavour (other settings) is supervised alike
if(NOT SPLITC_TEST_ERROR_PATHS OR SPLITC_TEST_FLAVOUR)
  return()
endif()
set(_expect_failure $<TARGET_FILE:splitc-expect> failure)
set(_expect_pass $<TARGET_FILE:splitc-expect> pass)
foreach(backend IN LISTS SPLITC_TEST_BACKENDS)
  splitc_add_test_program(sv_probe sv_probe.cpp ${backend})
  # Processors sharing one process (sim): no process to stop or lose; its scheduler reports
  # every stuck processor instead (ports/sim/tests). The launcher checks below still apply.
  get_target_property(shared splitc-${backend} SPLITC_SHARED_PROCESS)
  splitc_test_launcher(${backend} run)
  set(exe $<TARGET_FILE:sv_probe_${backend}>)
  # Processor 1 skips the last barrier before finalize (P = 3), skips the last reduction, or
  # calls one barrier more: finalize's barrier and the program's collective meet as a mismatch,
  # reported by one of the two, naming the other. On the CM-5 ports, where the program's
  # collectives run on the control network and carry no signature, a processor waiting there
  # judges the finalize messages that reach it (their signature counts the native collectives
  # their sender passed).
  set(mismatch "collective mismatch: processor [0-9]+ (has reached finalize\\(\\) while this processor is in a collective|is in a collective while this processor has reached finalize\\(\\))")
  foreach(case IN ITEMS skip:skipped_barrier skip_reduce:skipped_reduction extra:extra_barrier)
    string(REPLACE ":" ";" case ${case})
    list(GET case 0 kind)
    list(GET case 1 name)
    add_test(NAME ${backend}.supervision.${name}.p3
      COMMAND ${_expect_failure} --within 30 --status 70 --regex "${mismatch}"
              -- ${run} -n 3 ${exe} ${kind} 1)
    set_tests_properties(${backend}.supervision.${name}.p3
      PROPERTIES LABELS "supervision;errors;${backend}" TIMEOUT 120)
  endforeach()
  if(shared)
    # But an _exit(0) of one processor ends the one process with status 0: the launcher's
    # supervisor of that process names it, under splitc-run and started with SPLITC_PROCS.
    set(whole "splitc-run: the job's process \\(pid [0-9]+, every processor\\) exited before every processor reached finalize\\(\\)")
    add_test(NAME ${backend}.supervision.exit0.p4
      COMMAND ${_expect_failure} --within 30 --regex "${whole}"
              -- ${run} -n 4 ${exe} exit0 3)
    add_test(NAME ${backend}.supervision.exit0.procs4
      COMMAND ${_expect_failure} --within 30 --regex "${whole}"
              -- ${CMAKE_COMMAND} -E env --unset=SPLITC_JOB SPLITC_PROCS=4 ${exe} exit0 3)
    set_tests_properties(${backend}.supervision.exit0.p4 ${backend}.supervision.exit0.procs4
      PROPERTIES LABELS "supervision;${backend}" TIMEOUT 120)
    continue()
  endif()
  set(env ${CMAKE_COMMAND} -E env SPLITC_SILENCE=2)

  # SIGSTOP of processor 1 at P = 4: its watcher (processor 2) names it within the limit.
  add_test(NAME ${backend}.supervision.stop.p4
    COMMAND ${_expect_failure} --within 30
            --regex "splitc: processor 2 of 4: processor 1 has been silent for [0-9.]+ s \\(limit SPLITC_SILENCE=2 s\\)"
            -- ${env} ${run} -n 4 ${exe} stop 1)
  # _exit(0) of processor 3 at P = 4, past every exit handler: processor 0 (its watcher) names
  # it; under the backends mpirun or oshrun starts its rank supervisor does (and is usually
  # first; under Open MPI's daemon, which gives no SIGTERM grace under splitc-run, it may be
  # alone).
  set(early "splitc: processor 0 of 4: processor 3 \\(pid [0-9]+\\) ended before reaching finalize\\(\\)")
  # Started by mpirun or oshrun:
  if(backend MATCHES "^(mpi|mpich|nx|nx_mpich|mpl|mpl_mpich|shmem)$")
    set(early "${early}|splitc-run: processor 3 \\(pid [0-9]+\\) exited before reaching finalize\\(\\)")
  endif()
  add_test(NAME ${backend}.supervision.exit0.p4
    COMMAND ${_expect_failure} --within 30
            --regex "${early}"
            -- ${env} ${run} -n 4 ${exe} exit0 3)
  # Processor 1 computes for 4 s without polling under a 2 s limit (twice the limit: its
  # heartbeats are a thread's, not its loop's): the job passes.
  add_test(NAME ${backend}.supervision.compute.p3
    COMMAND ${_expect_pass} sv_probe ${env} ${run} -n 3 ${exe} compute 4)
  # The whole job stopped for 4 s (twice the limit) and continued, as a paused virtual machine
  # or a suspended job is: no processor was silent; the job goes on and passes.
  add_test(NAME ${backend}.supervision.frozen_whole.p3
    COMMAND ${SPLITC_TEST_BASH} ${SPLITC_TESTS_DIR}/supervision/frozen_job.sh 4
            ${env} ${run} -n 3 ${exe} hold_until)
  set_tests_properties(${backend}.supervision.stop.p4 ${backend}.supervision.exit0.p4
                       ${backend}.supervision.compute.p3 ${backend}.supervision.frozen_whole.p3
    PROPERTIES LABELS "supervision;${backend}" TIMEOUT 120)
endforeach()

# A program started by a foreign MPI launcher is refused, naming both: Open MPI's mpirun for
# every backend but mpi and shmem (Open MPI's oshrun is its mpirun: a plain oshrun or mpirun
# starts shmem programs, ports/t3d/tests), MPICH's for every backend but mpich. (A program started by another
# backend's launcher: tests/supervision/CMakeLists.txt, every pair of backends built here.)
find_program(SPLITC_MPIRUN_OPENMPI mpirun.openmpi)
find_program(SPLITC_MPIRUN_MPICH mpirun.mpich)
foreach(program_backend IN LISTS SPLITC_TEST_BACKENDS)
  set(exe $<TARGET_FILE:sv_probe_${program_backend}>)
  set(foreign "")
  if(SPLITC_MPIRUN_OPENMPI AND NOT program_backend MATCHES "^(mpi|shmem)$")
    set(test ${program_backend}.supervision.foreign_openmpi)
    add_test(NAME ${test}
      COMMAND ${_expect_failure} 
              --regex "splitc: processor [0-3]: this program is linked with backend '${program_backend}' but was started by Open MPI's mpirun( \\(or oshrun\\))? as one of 4 processes \\(OMPI_COMM_WORLD_SIZE=4\\); .*start it with splitc-run --backend ${program_backend}"
              -- ${SPLITC_MPIRUN_OPENMPI} --allow-run-as-root --oversubscribe -np 4 ${exe} ok)
    list(APPEND foreign ${test})
  endif()
  if(SPLITC_MPIRUN_MPICH AND NOT program_backend STREQUAL "mpich")
    set(test ${program_backend}.supervision.foreign_mpich)
    add_test(NAME ${test}
      COMMAND ${_expect_failure} 
              --regex "splitc: processor [0-3]: this program is linked with backend '${program_backend}' but was started by MPICH's mpiexec \\(Hydra\\) or another PMI launcher as one of 4 processes \\(PMI_SIZE=4\\); .*start it with splitc-run --backend ${program_backend}"
              -- ${SPLITC_MPIRUN_MPICH} -np 4 ${exe} ok)
    list(APPEND foreign ${test})
  endif()
  if(foreign)
    set_tests_properties(${foreign} PROPERTIES LABELS "supervision;${program_backend}" TIMEOUT 120)
  endif()
endforeach()

# Open MPI's mpirun killed under splitc-run: its shared-memory files are removed with the job's
# private directory, and splitc-run says so and exits 137; splitc-run killed: the rank
# supervisors remove the directory.
if("mpi" IN_LIST SPLITC_TEST_BACKENDS)
  add_test(NAME mpi.supervision.mpirun_killed
    COMMAND ${SPLITC_TEST_BASH} ${CMAKE_CURRENT_LIST_DIR}/mpirun_killed.sh
            $<TARGET_FILE:splitc-run-mpi> $<TARGET_FILE:sv_probe_mpi>)
  set_tests_properties(mpi.supervision.mpirun_killed PROPERTIES LABELS "supervision;mpi"
    TIMEOUT 120)
endif()

# What splitc-run hands the MPI-style launchers (PMIx's hash store, no SIGKILL grace and the
# session directory in the job's private directory for Open MPI's mpirun and oshrun, a user's
# own values kept, nothing for MPICH's Hydra), seen by a stand-in launcher: no job starts.
foreach(backend mpi mpich shmem)
  if(backend IN_LIST SPLITC_TEST_BACKENDS)
    add_test(NAME ${backend}.supervision.launcher_environment
      COMMAND ${SPLITC_TEST_BASH} ${CMAKE_CURRENT_LIST_DIR}/launcher_environment.sh
              $<TARGET_FILE:splitc-run-${backend}> ${backend})
    set_tests_properties(${backend}.supervision.launcher_environment PROPERTIES
      LABELS "supervision;${backend}" TIMEOUT 60
      PASS_REGULAR_EXPRESSION "PASS launcher environment on ${backend}")
  endif()
endforeach()
