# ctest smoke test of one splitc-bench part: run it with --smoke and check
# that it wrote results.json (parsed, with rows), results.csv and, when
# gnuplot is installed, the part's plot. Never looks at timings.
#   cmake -DLAUNCHER=... -DPROGRAM=... -DPART=... -DPLOT=... -DGNUPLOT=... -DOUT=... -P smoke_test.cmake
file(REMOVE_RECURSE "${OUT}")
execute_process(
  COMMAND "${LAUNCHER}" -n 2 "${PROGRAM}" --smoke --only ${PART} --out "${OUT}" --no-progress
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "splitc-bench --smoke --only ${PART} failed (${rc}):\n${err}")
endif()
foreach(f results.json results.csv)
  if(NOT EXISTS "${OUT}/${f}")
    message(FATAL_ERROR "no ${OUT}/${f}")
  endif()
endforeach()
file(READ "${OUT}/results.json" json)
string(JSON rows ERROR_VARIABLE json_err LENGTH "${json}" rows)
if(json_err OR rows LESS 1)
  message(FATAL_ERROR "results.json: no rows (${json_err})")
endif()
string(JSON first GET "${json}" rows 0 part)
message("results.json: ${rows} rows, first of part ${first}")
if(PLOT AND GNUPLOT)
  foreach(ext png svg)
    if(NOT EXISTS "${OUT}/${PLOT}.${ext}")
      message(FATAL_ERROR "gnuplot is installed but ${OUT}/${PLOT}.${ext} was not written")
    endif()
  endforeach()
endif()
