# ctest smoke test of splitc-bench: run one part (PART) or all of them (no
# PART) with --smoke and check that it wrote results.json (parsed, with
# rows), results.csv, the --json lines (one per row) and, when gnuplot is
# installed, the plot PLOT. Never looks at timings. BACKEND (optional) is
# passed to the launcher.
#   cmake -DLAUNCHER=... -DPROGRAM=... [-DBACKEND=...] [-DPART=...] -DPLOT=... -DGNUPLOT=...
#         -DOUT=... -P smoke_test.cmake
file(REMOVE_RECURSE "${OUT}")
set(only "")
if(PART)
  set(only --only ${PART})
endif()
set(backend "")
if(BACKEND)
  set(backend --backend ${BACKEND})
endif()
execute_process(
  COMMAND "${LAUNCHER}" ${backend} -n 2 "${PROGRAM}" --smoke ${only} --out "${OUT}" --no-progress
          --json "${OUT}/lines.jsonl"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "splitc-bench --smoke ${only} ${backend} failed (${rc}):\n${err}")
endif()
foreach(f results.json results.csv lines.jsonl)
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
file(STRINGS "${OUT}/lines.jsonl" lines ENCODING UTF-8)  # the seed citations have "§"
list(LENGTH lines nlines)
if(NOT nlines EQUAL rows)
  message(FATAL_ERROR "--json wrote ${nlines} lines for ${rows} rows")
endif()
list(GET lines 0 line0)
string(JSON name0 ERROR_VARIABLE line_err GET "${line0}" name)
if(line_err)
  message(FATAL_ERROR "--json: the first line is not a JSON object with a name: ${line0}")
endif()
if(PLOT AND GNUPLOT)
  foreach(ext png svg)
    if(NOT EXISTS "${OUT}/${PLOT}.${ext}")
      message(FATAL_ERROR "gnuplot is installed but ${OUT}/${PLOT}.${ext} was not written")
    endif()
  endforeach()
endif()
