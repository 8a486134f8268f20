# splitc-bench, the porting suite (docs/performance.md), for one backend; used
# by bench/CMakeLists.txt for every registered backend and by
# splitc_add_backend outside this tree (the bench sources are installed in
# share/splitc/bench). SPLITC_BENCH_SOURCE_DIR names the sources.
#
#   splitc_add_bench(NAME [TARGET t] [NO_SMOKE_TEST])
#     the executable t (default splitc-bench-NAME) linked with splitc::NAME,
#     and, with SPLITC_BUILD_TESTS and unless NO_SMOKE_TEST or NAME is
#     SINGLE_PROCESS, the test bench.smoke.NAME (labels "bench;NAME"): every
#     part once with tiny sizes through the launcher, checking the files it
#     writes, never its timings.
include_guard(GLOBAL)

# common_sources.cpp is main.cpp, harness.cpp, results.cpp, plots.cpp and seed_figures.cpp,
# compiled as one per backend (the command line they parse and the link to the reference
# programs are compiled once: splitc-bench-common, below); all_parts.cpp the parts (parts/*.cpp,
# each a file of its own, its names in a namespace of its own), compiled as one;
# reference_paths.cpp alone holds the paths the build found (below).
set(SPLITC_BENCH_SOURCES common_sources.cpp all_parts.cpp reference_paths.cpp)

# What needs no splitc: the command line (command_line.cpp, CLI11) and the start and driving of
# the MPI and OpenSHMEM reference programs (mpi_link.cpp, whose fmt/ranges.h and <filesystem>
# cost each backend's common sources about 2 s of compiling): one library for every backend's
# bench, built by the first splitc_add_bench of the project. It times nothing, so it takes the
# build's own flags (the bench's link below strips its debug information where the bench's own
# objects have none).
function(_splitc_bench_common_library)
  if(TARGET splitc-bench-common)
    return()
  endif()
  add_library(splitc-bench-common STATIC "${SPLITC_BENCH_SOURCE_DIR}/command_line.cpp"
                                         "${SPLITC_BENCH_SOURCE_DIR}/mpi_link.cpp")
  target_link_libraries(splitc-bench-common PRIVATE CLI11::CLI11 fmt::fmt)
  target_compile_features(splitc-bench-common PUBLIC cxx_std_20)
  target_compile_options(splitc-bench-common PRIVATE -Wall -Wextra)
endfunction()

function(splitc_add_bench name)
  cmake_parse_arguments(A "NO_SMOKE_TEST" "TARGET" "" ${ARGN})
  if(NOT A_TARGET)
    set(A_TARGET splitc-bench-${name})
  endif()
  find_package(CLI11 CONFIG QUIET)
  find_package(nlohmann_json 3 QUIET)
  if(NOT CLI11_FOUND OR NOT nlohmann_json_FOUND)
    message(WARNING "splitc: ${A_TARGET} needs CLI11 and nlohmann_json "
      "(apt-get install libcli11-dev nlohmann-json3-dev); not built")
    return()
  endif()
  _splitc_bench_common_library()
  list(TRANSFORM SPLITC_BENCH_SOURCES PREPEND "${SPLITC_BENCH_SOURCE_DIR}/" OUTPUT_VARIABLE sources)
  add_executable(${A_TARGET} ${sources})
  target_link_libraries(${A_TARGET} PRIVATE splitc-${name} splitc-bench-common
                                           nlohmann_json::nlohmann_json)
  target_include_directories(${A_TARGET} PRIVATE "${SPLITC_BENCH_SOURCE_DIR}")
  # Timings only mean something optimised, whatever the tree's build type.
  target_compile_options(${A_TARGET} PRIVATE -Wall -Wextra
    $<$<NOT:$<CONFIG:Release,RelWithDebInfo,MinSizeRel>>:-O2>)
  # In this tree's default build, without debug information (as the test programs: 21
  # backends' copies took 630 MB); the long matrix (SPLITC_FULL_MATRIX) and a backend built
  # outside the tree keep it.
  if(NOT SPLITC_INSTALLED_PACKAGE AND NOT SPLITC_FULL_MATRIX
     AND CMAKE_BUILD_TYPE MATCHES "RelWithDebInfo|Debug")
    target_compile_options(${A_TARGET} PRIVATE -g0)
    target_link_options(${A_TARGET} PRIVATE LINKER:--strip-debug)
  endif()
  # The MPI and OpenSHMEM reference programs (this tree's bench/, when Open MPI is found):
  # their paths go to reference_paths.cpp only, so that every other object of the bench has
  # the same command line in any checkout (ccache's hits in a fresh clone).
  set(paths)
  if(TARGET splitc-bench-mpi-reference)
    list(APPEND paths SPLITC_BENCH_MPIRUN="${MPIEXEC_EXECUTABLE}"
                      SPLITC_BENCH_MPI_REFERENCE="$<TARGET_FILE:splitc-bench-mpi-reference>")
    add_dependencies(${A_TARGET} splitc-bench-mpi-reference)
  endif()
  if(TARGET splitc-bench-shmem-reference)
    list(APPEND paths SPLITC_BENCH_OSHRUN="${SPLITC_OSHRUN}"
                      SPLITC_BENCH_SHMEM_REFERENCE="$<TARGET_FILE:splitc-bench-shmem-reference>")
    add_dependencies(${A_TARGET} splitc-bench-shmem-reference)
  endif()
  set_source_files_properties("${SPLITC_BENCH_SOURCE_DIR}/reference_paths.cpp" PROPERTIES
                              COMPILE_DEFINITIONS "${paths}")

  splitc_backend_is_single_process(${name} single)
  if(NOT SPLITC_BUILD_TESTS OR A_NO_SMOKE_TEST OR single)
    return()
  endif()
  find_program(SPLITC_GNUPLOT gnuplot)
  # In this tree through the default launcher's --backend (which hands over to
  # splitc-run-NAME, and starts mpirun for the mpi flavours); outside it
  # through splitc-run-NAME itself.
  if(SPLITC_INSTALLED_PACKAGE)
    set(launcher $<TARGET_FILE:splitc-run-${name}>)
  else()
    set(launcher $<TARGET_FILE:splitc-run>)
  endif()
  # A backend may limit its smoke run to some parts (target property SPLITC_BENCH_SMOKE_PARTS,
  # e.g. "tables" while its figures are known not to finish); then no plot is expected.
  get_target_property(smoke_parts splitc-${name} SPLITC_BENCH_SMOKE_PARTS)
  set(smoke_args -DPLOT=fig12)
  if(smoke_parts)
    set(smoke_args -DPART=${smoke_parts} -DPLOT=)
  endif()
  add_test(NAME bench.smoke.${name}
           COMMAND ${CMAKE_COMMAND}
                   -DLAUNCHER=${launcher} -DBACKEND=${name}
                   -DPROGRAM=$<TARGET_FILE:${A_TARGET}>
                   ${smoke_args} -DGNUPLOT=${SPLITC_GNUPLOT}
                   -DOUT=${CMAKE_CURRENT_BINARY_DIR}/smoke-${name}
                   -P ${SPLITC_BENCH_SOURCE_DIR}/smoke_test.cmake)
  set_tests_properties(bench.smoke.${name} PROPERTIES TIMEOUT 120 LABELS "bench;${name}")
endfunction()
