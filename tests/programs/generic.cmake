# The generic multi-process test programs, on one backend at a time (SPLITC_TEST_BACKENDS;
# included by splitc_add_backend_tests, cmake/SplitcTests.cmake, in this tree and outside it).
# Each program (label "programs" and the backend's name) is a plain main() that prints
# "PASS <name>" and exits 0, or names the failing processor and exits non-zero. Each runs
# through its backend's launcher at several process counts (`splitc-expect pass` also requires
# the PASS line), plus the expected-failure runs (`splitc-expect failure`, label "errors").
# ---- programs at every process count. NETWORK_ARGS: on every backend but smp, fewer barrier
# rounds (runtime_basics), 16 MiB transfers where smp's long matrix runs 64 MiB (bulk_large:
# still 4 or more of their largest long messages), 3000 short and 100 medium requests per pair
# instead of 12000 and 400 (am_flood).
set(_basics_network_args 20 50)
splitc_add_program_test(runtime_basics runtime_basics.cpp NETWORK_ARGS ${_basics_network_args})
splitc_add_program_test(global_memory global_memory.cpp)
splitc_add_program_test(counters counters.cpp)
# Waiting on memory (issue 42): wait_until / test and their array forms, satisfied by puts,
# stores, atomics and writes.
splitc_add_program_test(memory_wait memory_wait.cpp LABELS memory_wait)
# Every atomic operation on every word type under contention (issue 42): the layer's, CPU and
# active-message paths on one word.
splitc_add_program_test(atomic_operations atomic_operations.cpp LABELS atomics NETWORK_ARGS 20)
# Signalled puts (issue 42): the receiver waits on the signal alone and finds the data.
splitc_add_program_test(put_signal put_signal.cpp LABELS memory_wait)
# Strided and indexed transfers (issue 42): regions of 1-3 dimensions, index and piece
# lists over every processor (on the network flavours, the short pieces packed one message
# per owner).
splitc_add_program_test(strided strided.cpp LABELS transfers)
splitc_add_program_test(indexed indexed.cpp LABELS transfers)
# The threading model (issue 42): helper threads compute, the init thread calls splitc.
splitc_add_program_test(threads threads.cpp LABELS threads)
splitc_add_program_test(store_sync store_sync.cpp)
# Again through udp's impairment layer on the network path (the same-host layer off): every
# store path, reset_store_sync with stores in flight and all_store_sync under loss,
# duplication and reordering.
splitc_add_program_test(store_sync store_sync.cpp BACKENDS udp PROCS 2 4 VARIANT impair
  ENVIRONMENT "SPLITC_SAME_HOST=0;SPLITC_UDP_IMPAIR=drop=0.05,dup=0.03,reorder=0.05,delay=50,jitter=100,window=400,seed=11")
# And through HPAM's line noise (a bit of 5 % of the frames flipped after their CRC): frames
# that fail their check are dropped and retransmitted; results exact (issue 45: all_store_sync
# stalled on bit-flipped packets before the frame check).
# (hpam only: on hpam_sim each lost frame is a retransmission timeout in virtual time, which
# the engine steps through slowly; emulations/hp's flood.corrupt covers the sim wire.)
splitc_add_program_test(store_sync store_sync.cpp BACKENDS hpam PROCS 2 3 VARIANT corrupt
  ENVIRONMENT "HPAM_CORRUPT=0.05;HPAM_SEED=3")
splitc_add_program_test(bulk bulk.cpp)
# 16 MiB transfers (64 MiB on smp in the long matrix); 4 MiB on the CM-5 ports, whose packets
# carry four words (262,144 packets a transfer, each a fiber switch on the sim engine: 16 MiB
# took 30 s). bulk_huge: one transfer each way of 128 MiB in the default suite, twice the
# largest limit inside any backend (64 MiB: mpi's staged sends, the mailboxes' staging
# budget, the T3D port's mailbox reserve), 256 MiB in the long matrix. On this machine a
# fresh 4 KiB page of the segment costs a fault of about 14 us: 256 MiB each way was 10-18 s
# a test in the suite (docs/running.md).
if(SPLITC_FULL_MATRIX)
  set(_bulk_large_smp_mib 64)
  set(_bulk_huge_mib 256)
else()
  set(_bulk_large_smp_mib 16)
  set(_bulk_huge_mib 128)
endif()
set(_bulk_large_backends ${SPLITC_TEST_BACKENDS})
list(REMOVE_ITEM _bulk_large_backends cmam cmaml cmam_sim cmaml_sim)
if(_bulk_large_backends)
  splitc_add_program_test(bulk_large bulk_large.cpp LABELS large ARGS ${_bulk_large_smp_mib}
                          NETWORK_ARGS 16 BACKENDS ${_bulk_large_backends})
endif()
splitc_add_program_test(bulk_large bulk_large.cpp LABELS large ARGS 4
                        BACKENDS cmam cmaml cmam_sim cmaml_sim)
splitc_add_program_test(bulk_huge bulk_huge.cpp PROCS 2 LABELS large ARGS ${_bulk_huge_mib}
  ENVIRONMENT "SPLITC_SEGMENT_SIZE=1G")
splitc_add_program_test(active_messages active_messages.cpp)
splitc_add_program_test(am_flood am_flood.cpp NETWORK_ARGS 3000 100)
splitc_add_program_test(random_mix random_mix.cpp)
splitc_add_program_test(spread_pointers spread_pointers.cpp)

# The smallest rings the smp backend allows (4 largest messages): more wrap-around and
# padding, more waiting for room.
set(_small_rings "SPLITC_SMP_RING_BYTES=540672")
foreach(name am_flood bulk active_messages random_mix)
  splitc_add_program_test(${name} ${name}.cpp PROCS 3 VARIANT small_rings BACKENDS smp
    ENVIRONMENT ${_small_rings})
endforeach()

# The waits' early yield forced either way (SPLITC_YIELD_WHEN_IDLE; docs/running.md, "More
# processes than cores"): on where the job's own count would spin (two processes), off where
# it would yield on a host of two cores (three); the program's test loops (is_sync,
# is_store_sync, the memory tests) and the runtime's waits end with the same results. The
# backends whose processors are processes, at P = 2 (the others start at 3); smp at 3 off.
if(NOT SPLITC_TEST_FLAVOUR)
  splitc_add_program_test(global_memory global_memory.cpp PROCS 2 VARIANT yield_when_idle
    BACKENDS smp mpi mpich udp am4 onesided ENVIRONMENT SPLITC_YIELD_WHEN_IDLE=1)
  splitc_add_program_test(global_memory global_memory.cpp PROCS 3 VARIANT spin_when_idle
    BACKENDS smp ENVIRONMENT SPLITC_YIELD_WHEN_IDLE=0)
endif()

# With address-space randomisation left on, programs that use only the segment and addresses
# they exchanged still work (statics would not).
splitc_add_program_test(runtime_basics runtime_basics.cpp PROCS 3 VARIANT keep_aslr
  LAUNCHER_ARGS --keep-aslr NETWORK_ARGS ${_basics_network_args})
splitc_add_program_test(counters counters.cpp PROCS 3 VARIANT keep_aslr
  LAUNCHER_ARGS --keep-aslr)

# The rest: how the launcher starts a program and how jobs fail (not on a TEST_VEHICLE).
if(NOT SPLITC_TEST_ERROR_PATHS)
  return()
endif()

if(NOT SPLITC_TEST_FLAVOUR)  # how a job starts: not again in a flavour
# ---- started plainly (no splitc-run): SPLITC_PROCS=3 launches 3 processes, else a job of one
set(_plain_env ${CMAKE_COMMAND} -E env --unset=SPLITC_JOB --unset=SPLITC_SMP_FD
               --unset=SPLITC_MYPROC)
foreach(backend IN LISTS SPLITC_TEST_BACKENDS)
  splitc_add_test_program(tp_plain_start plain_start.cpp ${backend})
  set(exe $<TARGET_FILE:tp_plain_start_${backend}>)
  add_test(NAME ${backend}.plain_start.procs3
    COMMAND $<TARGET_FILE:splitc-expect> pass plain_start
            ${_plain_env} SPLITC_PROCS=3 ${exe} 3)
  add_test(NAME ${backend}.plain_start.procs1
    COMMAND $<TARGET_FILE:splitc-expect> pass plain_start
            ${_plain_env} SPLITC_PROCS=1 ${exe} 1)
  add_test(NAME ${backend}.plain_start.unset
    COMMAND $<TARGET_FILE:splitc-expect> pass plain_start
            ${_plain_env} --unset=SPLITC_PROCS ${exe} 1)

  # Program arguments, written out in each add_test: a CMake list cannot hold the empty one.
  splitc_add_test_program(tp_program_args program_args.cpp ${backend})
  splitc_test_launcher(${backend} run)
  set(exe $<TARGET_FILE:tp_program_args_${backend}>)
  add_test(NAME ${backend}.program_args.p3
    COMMAND $<TARGET_FILE:splitc-expect> pass program_args
            ${run} -n 3 ${exe} -n 5 --keep-aslr -- "two words" "" --backend=none)
  add_test(NAME ${backend}.program_args.plain_procs3
    COMMAND $<TARGET_FILE:splitc-expect> pass program_args
            ${_plain_env} SPLITC_PROCS=3 ${exe} -n 5 --keep-aslr -- "two words" ""
            --backend=none)
  # An option splitc-run does not know is refused with the usage, not run as the program.
  add_test(NAME ${backend}.launcher.unknown_option
    COMMAND $<TARGET_FILE:splitc-expect> failure --status 2
            --regex "splitc-run: unknown option '--bogus' \\(a program whose name starts with '-' follows '--'\\)"
            -- ${run} -n 2 --bogus ${exe})
  set_tests_properties(${backend}.launcher.unknown_option PROPERTIES
    LABELS "errors;${backend};generic" TIMEOUT 60)
  # The backend's test driver, asked for a program it does not have, names the ones it has.
  add_test(NAME ${backend}.test_driver.unknown_program
    COMMAND $<TARGET_FILE:splitc-expect> failure --status 2
            --regex "splitc-tests-${backend}: no test program named 'no_such_program'; this driver has: .*tp_program_args"
            -- $<TARGET_FILE:splitc-tests-${backend}> no_such_program)
  set_tests_properties(${backend}.test_driver.unknown_program PROPERTIES
    LABELS "programs;${backend};generic" TIMEOUT 60)
  set_tests_properties(${backend}.plain_start.procs3 ${backend}.plain_start.procs1
                       ${backend}.plain_start.unset ${backend}.program_args.p3
                       ${backend}.program_args.plain_procs3
    PROPERTIES LABELS "programs;${backend};generic" TIMEOUT 120)
endforeach()
endif()

# ---- expected failures (label "errors"): each program's name (xf_NAME_<backend>) is used by
# no other test, so splitc-expect can check by the name that none of its processes is left.

# splitc_add_failure_test: cmake/SplitcTests.cmake.
splitc_add_failure_test(xf_range PROCS 3 STATUS 70
  REGEX "processor 0 of 3: read: processor number 5 is out of range")
splitc_add_failure_test(xf_null PROCS 2 STATUS 70
  REGEX "processor 1 of 2: read: null global pointer")
splitc_add_failure_test(xf_length PROCS 2 STATUS 70
  REGEX "processor 0 of 2: bulk_get: impossible length -1 bytes")
splitc_add_failure_test(xf_reply2 PROCS 2 STATUS 70
  REGEX "processor 1 of 2: handler [0-9]+ replied twice to processor 0")
splitc_add_failure_test(xf_replysend PROCS 2 STATUS 70
  REGEX "processor 0 of 2: handler [0-9]+ \\(a reply handler\\) tried to send")
# Misuse of the waits on memory (issue 42).
splitc_add_failure_test(xf_wait PROCS 2 STATUS 70 ARGS lengths TEST xf_wait_lengths
  REGEX "processor 1 of 2: wait_until_all: the status array and the word array differ in length")
splitc_add_failure_test(xf_wait PROCS 2 STATUS 70 ARGS indices TEST xf_wait_indices
  REGEX "processor 1 of 2: wait_until_some: the index array is shorter than the word array")
splitc_add_failure_test(xf_wait PROCS 2 STATUS 70 ARGS cmp TEST xf_wait_cmp
  REGEX "processor 1 of 2: wait_until: the comparison is not one of cmp's")
splitc_add_failure_test(xf_wait PROCS 2 STATUS 70 ARGS handler TEST xf_wait_handler
  REGEX "processor 0 of 2: wait_until called inside handler")
# A signalled put whose signal word is elsewhere than its data (issue 42).
splitc_add_failure_test(xf_put_signal PROCS 2 STATUS 70
  REGEX "processor 1 of 2: put_signal: the data is on processor 0 and the signal word on processor 1")
# A splitc call from a second thread (issue 42: the threading model is FUNNELED).
splitc_add_failure_test(xf_thread PROCS 2 STATUS 70
  REGEX "processor [01] of 2: splitc was called from thread [0-9]+, not the thread that called init")
# A strided put whose destination elements overlap (issue 42).
splitc_add_failure_test(xf_strided PROCS 2 STATUS 70
  REGEX "processor 1 of 2: bulk_put_strided: elements of the destination region overlap")
splitc_add_failure_test(xf_hwait PROCS 2 STATUS 70 ARGS read TEST xf_hwait_read
  REGEX "processor 1 of 2: read called inside handler [0-9]+; handlers run inside poll and must not wait")
splitc_add_failure_test(xf_hwait PROCS 3 STATUS 70 ARGS barrier TEST xf_hwait_barrier
  REGEX "processor 2 of 3: barrier called inside handler [0-9]+; .*must not wait")
# A process that exits, is killed or crashes: splitc-run names it on every backend (under the
# mpi backends through the rank supervisor, include/splitc/port/external_launch.hpp), and exits
# with 128 + the signal; a non-zero exit is reported by the mpi backend itself (MPI_Abort).
splitc_add_failure_test(xf_exit3 PROCS 3 STATUS 3
  REGEX "splitc-run: processor 1 \\(pid [0-9]+\\) exited with status 3"
  REGEX_mpi "splitc: processor 1: exit status 3; ending the MPI job"
  REGEX_mpich "splitc: processor 1: exit status 3; ending the MPI job"
  REGEX_shmem "splitc: processor 1: exit status 3; ending the SHMEM job"
  REGEX_shared_process "splitc: processor 1 of 3: exit status 3; ending the job"
  REGEX_nx "splitc: processor 1: exit status 3; ending the job"
  REGEX_nx_mpich "splitc: processor 1: exit status 3; ending the job"
  REGEX_mpl "splitc: processor 1: exit status 3; ending the job"
  REGEX_mpl_mpich "splitc: processor 1: exit status 3; ending the job")
splitc_add_failure_test(xf_sigkill PROCS 3 STATUS 137
  REGEX "splitc-run: processor 1 \\(pid [0-9]+\\) was killed by signal 9"
  REGEX_shared_process "splitc-run: the job's process \\(pid [0-9]+, every processor\\) was killed by signal 9"
  OPTIONS --kill-printed-pid --ready "processor 1 \\(pid [0-9]+\\) ready")
splitc_add_failure_test(xf_segv PROCS 2 STATUS 139
  REGEX "splitc-run: processor 1 \\(pid [0-9]+\\) was killed by signal 11"
  REGEX_shared_process "splitc: processor 1 of 2: segmentation fault at address")
splitc_add_failure_test(xf_nofinalize PROCS 3 STATUS 70
  REGEX "processor 1 of 3: the process exited without calling finalize\\(\\)")
# The launcher is sent SIGTERM: splitc-run says so and exits 143 on every backend (under the
# mpi backends it ends the mpirun it runs).
splitc_add_failure_test(xf_launcher PROCS 3 STATUS 143 TEST launcher_sigterm
  REGEX "splitc-run: interrupted by signal 15; ending the job"
  OPTIONS --signal-launcher TERM --ready "job ready")
splitc_add_failure_test(xf_launcher PROCS 3 STATUS 137 TEST launcher_sigkill
  REGEX "job ready to be signalled"
  OPTIONS --signal-launcher KILL --ready "job ready")

# Misuse of collectives and of the heap (the collectives issue).
splitc_add_failure_test(xf_collective_type PROCS 2 STATUS 70
  REGEX "collective mismatch: processor [01] is in a different collective, or the same one with another element type")
splitc_add_failure_test(xf_collective_type PROCS 2 STATUS 70 ARGS counts TEST xf_collective_count
  REGEX "collective mismatch: processor [01] sent [0-9]+ bytes where [0-9]+ were expected")
# Processor 1 names root 1, processors 0 and 2 root 0: whichever pair meets first is reported
# (nx_sim, mpl_sim: the model's timing decides which two processors meet first).
set(_any_pair "collective mismatch: processor [0-2] broadcasts from root [01], processor [0-2] from root [01]")
splitc_add_failure_test(xf_broadcast_root PROCS 3 STATUS 70
  REGEX "collective mismatch: processor (1 broadcasts from root 1, processor [02] from root 0|[02] broadcasts from root 0, processor 1 from root 1)"
  REGEX_nx_sim "${_any_pair}" REGEX_mpl_sim "${_any_pair}")
splitc_add_failure_test(xf_broadcast_root PROCS 3 STATUS 70 ARGS long TEST xf_broadcast_root_long
  REGEX "collective mismatch: processor (1 broadcasts from root 1, processor [02] from root 0|[02] broadcasts from root 0, processor 1 from root 1)"
  REGEX_nx_sim "${_any_pair}" REGEX_mpl_sim "${_any_pair}")
# The mismatched broadcast is the last collective: the root's deferred check runs in finalize.
splitc_add_failure_test(xf_broadcast_root PROCS 3 STATUS 70 ARGS last TEST xf_broadcast_root_last
  REGEX "collective mismatch: processor (1 broadcasts from root 1, processor [02] from root 0|[02] broadcasts from root 0, processor 1 from root 1)"
  REGEX_nx_sim "${_any_pair}" REGEX_mpl_sim "${_any_pair}")
# ... or is followed by waits that nothing ends: the root's check at a poll ends the job.
splitc_add_failure_test(xf_broadcast_root PROCS 3 STATUS 70 ARGS wait TEST xf_broadcast_root_wait
  REGEX "collective mismatch: processor (1 broadcasts from root 1, processor [02] from root 0|[02] broadcasts from root 0, processor 1 from root 1)"
  REGEX_nx_sim "${_any_pair}" REGEX_mpl_sim "${_any_pair}")
# ... or is one of a loop of broadcasts, whose checks wait for up to 32 broadcasts at P = 3:
# processor 2 names root 1 in the sixth of 40 and waits; processor 0 reports it by the 38th.
splitc_add_failure_test(xf_broadcast_root PROCS 3 STATUS 70 ARGS loop TEST xf_broadcast_root_loop
  REGEX "collective mismatch: processor (2 broadcasts from root 1, processor 0 from root 0|0 broadcasts from root 0, processor 2 from root 1)"
  REGEX_nx_sim "${_any_pair}" REGEX_mpl_sim "${_any_pair}")
# ... or one processor makes one broadcast more than the others before a barrier: its root
# announcements, one message for all its broadcasts, cover one its parent never made. Where
# the barrier is the CM-5's control network, the network names the mismatch (cmaml, whose
# broadcasts agree there too), or, where only the barrier is the network's (cmam_sim's
# machine), the sim finds every processor waiting: the announcement the others never read
# waits in a mailbox the network's barrier does not look at.
splitc_add_failure_test(xf_broadcast_root PROCS 3 STATUS 70 ARGS extra TEST xf_broadcast_root_extra
  REGEX "collective mismatch: processor [02] is in a different collective"
  REGEX_cmaml "cmaml: CMMD_[a-z_]+: node [0-2] is in (CMMD_sync_with_nodes|a reduction)"
  REGEX_cmaml_sim "cmaml_sim: CMMD_[a-z_]+: node [0-2] is in (CMMD_sync_with_nodes|a reduction)"
  REGEX_cmam_sim "sim: deadlock at virtual time [0-9]+ ns: every processor waits and no message is in flight")
# SPLITC_BROADCAST_CHECK=before_return: the same mismatches are reported before any processor
# returns from the broadcast (none prints what it got, none leaves the sixth of a loop).
set(_roots_differ "collective mismatch: processor (1 broadcasts from root 1, processor [02] from root 0|[02] broadcasts from root 0, processor 1 from root 1)")
splitc_add_failure_test(xf_broadcast_root PROCS 3 STATUS 70 TEST xf_broadcast_root_agreed
  ENVIRONMENT SPLITC_BROADCAST_CHECK=before_return OPTIONS --absent " got "
  REGEX "${_roots_differ}" REGEX_nx_sim "${_any_pair}" REGEX_mpl_sim "${_any_pair}")
splitc_add_failure_test(xf_broadcast_root PROCS 3 STATUS 70 ARGS loop
  TEST xf_broadcast_root_agreed_loop
  ENVIRONMENT SPLITC_BROADCAST_CHECK=before_return OPTIONS --absent "returned from broadcast"
  REGEX "collective mismatch: processor (2 broadcasts from root 1, processor 0 from root 0|0 broadcasts from root 0, processor 2 from root 1)"
  REGEX_nx_sim "${_any_pair}" REGEX_mpl_sim "${_any_pair}")
# ... and set on one processor only, it is a mismatch of its own (not a hang, nor a root's).
# (Not on cmaml: a broadcast that fits the CM-5's control network agrees on its root there,
# whatever the setting, and passes.)
set(_mailbox_broadcasts ${SPLITC_TEST_BACKENDS})
list(REMOVE_ITEM _mailbox_broadcasts cmaml)
if(_mailbox_broadcasts)
  splitc_add_failure_test(xf_broadcast_root PROCS 3 STATUS 70 ARGS mixed PROCESSES_ONLY
    BACKENDS ${_mailbox_broadcasts} TEST xf_broadcast_check_mixed
    REGEX "collective mismatch: processor [0-2] checks broadcasts (pipelined|before_return), processor [0-2] (before_return|pipelined) \\(SPLITC_BROADCAST_CHECK must be the same on every processor\\)")
endif()
# Misuse of teams (issue 41): members of one team in different collectives, counts they
# disagree on (also where one member's block travels staged and the other's does not), a result too small, split-phase counts that do not add up and a split-phase result too small (both reported at the call), a collective on an empty team, destroying the world.
splitc_add_failure_test(xf_team PROCS 4 STATUS 70 ARGS kind TEST xf_team_kind
  REGEX "collective mismatch: processor [13] \\(rank [01] of a team of 2\\) is in a different collective")
splitc_add_failure_test(xf_team PROCS 4 STATUS 70 ARGS counts TEST xf_team_counts
  REGEX "collective mismatch: processor [13] \\(rank [01] of a team of 2\\) sent [0-9]+ bytes where [0-9]+ were expected")
splitc_add_failure_test(xf_team PROCS 4 STATUS 70 ARGS staged TEST xf_team_staged
  REGEX "collective mismatch: processor [13] \\(rank [01] of a team of 2\\) sent (12000 bytes where 40|40 bytes where 12000) were expected")
splitc_add_failure_test(xf_team PROCS 4 STATUS 70 ARGS lengths TEST xf_team_lengths
  REGEX "collective mismatch: processor [13] \\(rank [01] of a team of 2\\) sent (12000 bytes where 16000|16000 bytes where 12000) were expected")
splitc_add_failure_test(xf_team PROCS 4 STATUS 70 ARGS size TEST xf_team_size
  REGEX "processor 3 of 4: all_gather: the result holds 3 elements where 4 are needed \\(a team of 2 members\\)")
splitc_add_failure_test(xf_team PROCS 4 STATUS 70 ARGS vcounts TEST xf_team_vcounts
  REGEX "processor 3 of 4: reduce_scatterv: the data holds 4 elements where 3 are needed \\(a team of 2 members\\)"
  OPTIONS --absent "processor 3: vcounts started")
splitc_add_failure_test(xf_team PROCS 4 STATUS 70 ARGS split_size TEST xf_team_split_size
  REGEX "processor 3 of 4: all_gather: the result holds 3 elements where 4 are needed \\(a team of 2 members\\)"
  OPTIONS --absent "processor 3: split_size started")
splitc_add_failure_test(xf_team PROCS 4 STATUS 70 ARGS empty TEST xf_team_empty
  REGEX "processor 2 of 4: barrier: called on an empty team")
splitc_add_failure_test(xf_team PROCS 4 STATUS 70 ARGS world TEST xf_team_world
  REGEX "processor 1 of 4: team::destroy: the world team cannot be destroyed")
splitc_add_failure_test(xf_double_free PROCS 2 STATUS 70
  REGEX "all_spread_free from processor 0: address 0x[0-9a-f]+ is not a live spread-heap allocation .double free..")
splitc_add_failure_test(xf_double_free PROCS 2 STATUS 70 ARGS one-sided TEST xf_double_free_one_sided
  REGEX "spread_free from processor [01]: address 0x[0-9a-f]+ is not a live spread-heap allocation")

# The launcher's failures and bad settings: not again in a flavour.
if(SPLITC_TEST_FLAVOUR)
  return()
endif()

# The launcher cannot start the program (splitc-run: status 127; mpirun in its own words), and
# a bad SPLITC_PROCS when started plainly.
set(_cannot_start_smp --status 127 --regex "splitc-run: processor [01]: cannot start [^ ]*no_such_program")
set(_cannot_start_udp ${_cannot_start_smp})
set(_cannot_start_sim --status 127 --regex "splitc-run: cannot start [^ ]*no_such_program")
set(_cannot_start_mpi --regex "was unable to launch the specified application")
set(_cannot_start_mpich --regex "execvp error on file [^ ]*no_such_program")
foreach(backend IN LISTS SPLITC_TEST_BACKENDS)
  splitc_test_launcher(${backend} run)
  if(DEFINED _cannot_start_${backend})
    add_test(NAME ${backend}.errors.cannot_start
      COMMAND $<TARGET_FILE:splitc-expect> failure
              ${_cannot_start_${backend}}
              -- ${run} -n 2 ${CMAKE_CURRENT_BINARY_DIR}/no_such_program)
    set_tests_properties(${backend}.errors.cannot_start
      PROPERTIES LABELS "errors;${backend};generic" TIMEOUT 120)
  endif()
  add_test(NAME ${backend}.errors.bad_procs_env
    COMMAND $<TARGET_FILE:splitc-expect> failure --status 70
            --regex "splitc: processor 0: SPLITC_PROCS=0 is not a processor count \\(1..4096\\)"
            -- ${_plain_env} SPLITC_PROCS=0 $<TARGET_FILE:tp_plain_start_${backend}> 1)
  set_tests_properties(${backend}.errors.bad_procs_env
    PROPERTIES LABELS "errors;${backend};generic" TIMEOUT 120)
endforeach()

# Bad settings (src/port/env.cpp and src/port/segment.cpp, the same check and words on every
# backend: the smp launcher reports the segment before starting anyone, the others in every
# process).
set(_bad_env_segment_size_minus1 SPLITC_SEGMENT_SIZE=-1
  "SPLITC_SEGMENT_SIZE='-1' is not a size \\(expected e.g. 512M, 2G\\)")
set(_bad_env_segment_size_zero SPLITC_SEGMENT_SIZE=0
  "SPLITC_SEGMENT_SIZE='0' is not a usable size: the segment holds the spread heap")
set(_bad_env_segment_size_huge SPLITC_SEGMENT_SIZE=64T
  "SPLITC_SEGMENT_SIZE='64T' is more memory than this machine has \\([0-9.]+ [KMGT]iB of RAM and ")
set(_bad_env_segment_base_unaligned SPLITC_SEGMENT_BASE=12345
  "SPLITC_SEGMENT_BASE='12345' is not a usable address \\(a non-zero multiple of the page size")
set(_bad_env_silence_word SPLITC_SILENCE=abc
  "SPLITC_SILENCE='abc' is not a positive number of seconds")
set(_bad_env_silence_zero SPLITC_SILENCE=0
  "SPLITC_SILENCE='0' is not a positive number of seconds")
foreach(backend IN LISTS SPLITC_TEST_BACKENDS)
  splitc_test_launcher(${backend} run)
  set(cases segment_size_minus1 segment_size_zero segment_size_huge segment_base_unaligned
      silence_word silence_zero)
  get_target_property(shared splitc-${backend} SPLITC_SHARED_PROCESS)
  if(shared)  # no watchdog where processors share a process: SPLITC_SILENCE is not read
    list(REMOVE_ITEM cases silence_word silence_zero)
  endif()
  foreach(case IN LISTS cases)
    list(GET _bad_env_${case} 0 setting)
    list(GET _bad_env_${case} 1 regex)
    add_test(NAME ${backend}.errors.bad_${case}
      COMMAND $<TARGET_FILE:splitc-expect> failure
              --regex "splitc: processor [0-9]+[^:]*: ${regex}"
              -- ${CMAKE_COMMAND} -E env ${setting}
                 ${run} -n 2 $<TARGET_FILE:tp_plain_start_${backend}> 2)
    set_tests_properties(${backend}.errors.bad_${case}
      PROPERTIES LABELS "errors;${backend};generic" TIMEOUT 120)
  endforeach()
endforeach()
