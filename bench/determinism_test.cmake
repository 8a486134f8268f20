# ctest: splitc-bench on the sim (or one of its ports) prints the same tables twice. Runs
# PROGRAM (splitc-bench-sim, splitc-bench-cmam_sim, ...) through LAUNCHER with -n PROCS twice,
# with SPLITC_SIM_SEED=3 in deterministic mode, and requires identical
# standard output but for the line of host time ("total time ...").
#   cmake -DLAUNCHER=... -DPROGRAM=... -DPROCS=4 [-DMACHINE=cm5] -DARGS="--quick;--max-size;4096"
#         -DOUT=... -P determinism_test.cmake
file(REMOVE_RECURSE "${OUT}")
# MACHINE: a machine model (SPLITC_SIM_MACHINE); unset, the backend's own (a port's seed machine).
set(machine --unset=SPLITC_SIM_MACHINE)
if(DEFINED MACHINE)
  set(machine "SPLITC_SIM_MACHINE=${MACHINE}")
endif()
foreach(run 1 2)
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env ${machine} SPLITC_SIM_SEED=3 SPLITC_SIM_TIME=deterministic
            "${LAUNCHER}" -n ${PROCS} "${PROGRAM}" ${ARGS} --no-progress --no-plots
            --out "${OUT}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run ${run} of splitc-bench-sim failed (${rc}):\n${out}\n${err}")
  endif()
  string(REGEX REPLACE "\ntotal time [^\n]*" "" out "${out}")
  set(out${run} "${out}")  # not a list: the output has semicolons
  file(WRITE "${OUT}/run${run}.txt" "${out}")
endforeach()
set(first "${out1}")
if(NOT out1 STREQUAL out2)
  execute_process(COMMAND diff "${OUT}/run1.txt" "${OUT}/run2.txt" OUTPUT_VARIABLE d)
  message(FATAL_ERROR "two runs with SPLITC_SIM_SEED=3 printed different tables:\n${d}")
endif()
# The parts the command names are all there (a part that printed nothing would pass unseen).
foreach(title IN ITEMS "Table 4:" "Tables 8–11:" "Collectives beyond the seed's")
  string(FIND "${first}" "${title}" at)
  if(at LESS 0)
    message(FATAL_ERROR "the output has no \"${title}\" table:\n${first}")
  endif()
endforeach()
message("identical tables in both runs:\n${first}")
