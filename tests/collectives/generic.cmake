# Collectives, the global heap, atomics and atomic procedures (multi-process programs checked
# against sequential answers), at every process count of one backend at a time (included by
# splitc_add_backend_tests, cmake/SplitcTests.cmake). Uses the harness of tests/programs.
# On the network backends, fewer collectives back to back (collectives) and fewer operations
# per contended target (atomics): every kind still runs.
splitc_add_program_test(collectives collectives_test.cpp LABELS collectives NETWORK_ARGS 200)
# Again with every broadcast agreeing on its root before anyone returns (world, team and
# split-phase broadcasts; docs/decisions.md, "Broadcast roots are checked").
splitc_add_program_test(collectives collectives_test.cpp LABELS collectives NETWORK_ARGS 200
  PROCS 3 4 VARIANT agreed_broadcast ENVIRONMENT SPLITC_BROADCAST_CHECK=before_return)
splitc_add_program_test(heap heap_test.cpp LABELS collectives)
splitc_add_program_test(atomics atomics_test.cpp LABELS collectives NETWORK_ARGS 50)
# Atomics again through udp's impairment layer (loss, duplication, reordering, delay) on the
# network path (the same-host layer off: udp.impair.* checks that this spec really impairs it):
# split-phase atomic procedures apply exactly once but out of issue order.
splitc_add_program_test(atomics atomics_test.cpp LABELS collectives NETWORK_ARGS 50
  BACKENDS udp PROCS 2 3 VARIANT impair
  ENVIRONMENT "SPLITC_SAME_HOST=0;SPLITC_UDP_IMPAIR=drop=0.05,dup=0.03,reorder=0.05,delay=50,jitter=100,window=400,seed=7")
# Teams and the full collective set (issue 41): every collective on the world, split teams of
# uneven sizes, nested teams, the host's team, a processor grid's rows and columns.
# Long streams: 1.5 MiB blocks (two pieces each) on smp, 20000 bytes elsewhere (read in one copy
# between processes of one host, staged in the flavours that put them on different hosts).
splitc_add_program_test(teams teams_test.cpp LABELS collectives teams ARGS 5000 1572864
  NETWORK_ARGS 700 20000)
# Split-phase collectives (issue 41): every collective completed on a counter, many in flight on
# one team and on overlapping teams, progress by polling alone.
splitc_add_program_test(split_phase split_phase_test.cpp LABELS collectives teams NETWORK_ARGS 700)
# The collectives' one copy between processes of one host (smp, and the same-host layers of
# udp, mpi and mpich): on, the default, at P = 2, 3 and 4 (where an all-gather's runs of blocks
# wrap around the end of a buffer); off (staged) at P = 2; refused by the odd
# processors' kernel (a seccomp filter) at P = 3 -- not under Open MPI or MPICH, whose own
# shared-memory transports may use the call the filter refuses. Not in the flavours that put
# processes on different hosts.
if(NOT SPLITC_TEST_FLAVOUR)
  foreach(mode_procs on:2 on:3 on:4 staged:2 refused:3)
    string(REPLACE ":" ";" mp ${mode_procs})
    list(GET mp 0 mode)
    list(GET mp 1 procs)
    set(one_copy_backends smp udp mpi mpich)
    set(one_copy_environment)
    if(mode STREQUAL "refused")
      set(one_copy_backends smp udp)
    elseif(mode STREQUAL "staged")
      set(one_copy_environment
          ENVIRONMENT "SPLITC_SMP_COLLECTIVE_ONE_COPY_MIN=0;SPLITC_SAME_HOST_COLLECTIVE_ONE_COPY_MIN=0")
    endif()
    splitc_add_program_test(collective_one_copy collective_one_copy.cpp LABELS collectives
      BACKENDS ${one_copy_backends} PROCS ${procs} VARIANT ${mode} ARGS ${mode}
      ${one_copy_environment})
  endforeach()
endif()
# And at P = 8 on smp (the other backends' counts stop at 7; the sim runs 8 and 1024 in
# ports/sim/tests).
if("smp" IN_LIST SPLITC_TEST_BACKENDS AND NOT SPLITC_TEST_FLAVOUR)
  splitc_test_launcher(smp run)
  foreach(program teams split_phase)
    add_test(NAME smp.${program}.p8
             COMMAND $<TARGET_FILE:splitc-expect> pass ${program}
                     ${run} -n 8 $<TARGET_FILE:tp_${program}_smp>)
    set_tests_properties(smp.${program}.p8 PROPERTIES TIMEOUT 120
                         LABELS "collectives;teams;smp;generic")
  endforeach()
  # smp's long streams read from the sender's memory by default (one copy): staged again, the
  # two copies through the segment that the same-host layers take.
  set(staged_args_teams 5000 1572864)
  set(staged_args_split_phase)
  foreach(program teams split_phase)
    add_test(NAME smp.${program}.staged.p3
             COMMAND $<TARGET_FILE:splitc-expect> pass ${program}
                     ${run} -n 3 $<TARGET_FILE:tp_${program}_smp> ${staged_args_${program}})
    set_tests_properties(smp.${program}.staged.p3 PROPERTIES TIMEOUT 120
                         ENVIRONMENT SPLITC_SMP_COLLECTIVE_ONE_COPY_MIN=0
                         LABELS "collectives;teams;smp;generic")
  endforeach()
endif()
