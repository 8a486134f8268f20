# The generic test suites, registered per backend: in this tree by
# tests/CMakeLists.txt for every registered backend, outside it by
# splitc_add_backend (the suites are installed in share/splitc/tests).
# SPLITC_TESTS_DIR names the directory that holds them: every
# ${SPLITC_TESTS_DIR}/*/generic.cmake is one suite, included once per backend
# with SPLITC_TEST_BACKENDS set to that backend (and SPLITC_TEST_PROCS_<name>
# to its TEST_PROCS); */single_process.cmake likewise for SINGLE_PROCESS
# backends. A suite added there (a new directory with a generic.cmake and/or
# a single_process.cmake) runs on every backend, in this tree and outside it
# (cmake/SplitcInstall.cmake installs such directories).
#
#   splitc_add_backend_tests(NAME)
#   splitc_add_test_program(TARGET SOURCE BACKEND)
#   splitc_test_backends(OUT [b...])
#   splitc_add_program_test(NAME SOURCE ...)      (documented below)
#   splitc_add_failure_test(NAME ...)             (documented below)
# Tests are named <backend>.<test>.p<P> (<backend>.errors.<test> for the
# expected failures) and labelled with the backend's name.
include_guard(GLOBAL)

# In the default build the test programs carry no debug information: they are compiled
# without it (-g0) and linked with the libraries' stripped (--strip-debug), which takes each
# program from about 2.3 MB to 0.3 MB (810 programs: 2.6 GB of the build directory before) and
# spares the linker compressing it; symbols stay, so a crash still names its functions. The
# long matrix (SPLITC_FULL_MATRIX, scripts/build.sh --full) keeps full debug information, for
# gdb and backtraces with lines.
#   splitc_test_debug_info(TARGET): that rule for one test program (also the layers' own).
function(splitc_test_debug_info target)
  if(NOT SPLITC_FULL_MATRIX AND CMAKE_BUILD_TYPE MATCHES "RelWithDebInfo|Debug")
    target_compile_options(${target} PRIVATE -g0)
    target_link_options(${target} PRIVATE LINKER:--strip-debug)
  endif()
endfunction()

function(_splitc_test_compile_options target)
  target_compile_options(${target} PRIVATE -Wall -Wextra)
  splitc_test_debug_info(${target})
endfunction()

# splitc_expect_target(): the suite's runner, splitc-expect (programs/splitc_expect.cpp: it starts
# a test's job under a time limit and judges its exit and output; the failure runs also what
# the job left behind), built once wherever suites are registered, in this tree and outside it.
# Tests name it $<TARGET_FILE:splitc-expect>.
function(splitc_expect_target)
  if(TARGET splitc-expect)
    return()
  endif()
  add_executable(splitc-expect "${SPLITC_TESTS_DIR}/programs/splitc_expect.cpp")
  target_compile_features(splitc-expect PRIVATE cxx_std_20)
  set_target_properties(splitc-expect PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/splitc-tests")
  _splitc_test_compile_options(splitc-expect)
endfunction()

# splitc_add_backend_tests(NAME): every generic suite on NAME at its process
# counts. A SINGLE_PROCESS backend (the template) gets each suite's
# single_process.cmake instead (${SPLITC_TESTS_DIR}/*/single_process.cmake,
# with SPLITC_TEST_BACKENDS set to NAME): what such a backend must do, e.g. a
# job of one passes and a job of two fails with "no path to peer".
#
# splitc_add_backend_tests(NAME FLAVOUR f [PROCS p...] [ENVIRONMENT v=x...] [LABELS l...]
#                          [FAILURES]):
# the suites again on NAME under other settings (the same programs): tests named
# <backend>.<f>.<test>.p<P>, with ENVIRONMENT and LABELS added, at PROCS (default the
# backend's); the expected failures (splitc_add_failure_test) too with FAILURES. The
# supervision suite, the launcher's and the argument checks are not repeated.
function(splitc_add_backend_tests name)
  cmake_parse_arguments(B "FAILURES" "FLAVOUR" "PROCS;ENVIRONMENT;LABELS" ${ARGN})
  find_program(SPLITC_TEST_BASH bash REQUIRED)
  splitc_expect_target()
  set(SPLITC_TEST_BACKENDS ${name})
  get_target_property(SPLITC_TEST_PROCS_${name} splitc-${name} SPLITC_TEST_PROCS)
  set(SPLITC_TEST_FLAVOUR "${B_FLAVOUR}")
  set(SPLITC_TEST_FLAVOUR_ENVIRONMENT "${B_ENVIRONMENT}")
  set(SPLITC_TEST_FLAVOUR_LABELS "${B_LABELS}")
  set(SPLITC_TEST_FLAVOUR_FAILURES ${B_FAILURES})
  if(B_PROCS)
    set(SPLITC_TEST_PROCS_${name} ${B_PROCS})
  endif()
  # The launcher's and error paths' tests: not on a TEST_VEHICLE (they are its transport's).
  get_target_property(vehicle splitc-${name} SPLITC_TEST_VEHICLE)
  if(vehicle)
    set(SPLITC_TEST_ERROR_PATHS FALSE)
  else()
    set(SPLITC_TEST_ERROR_PATHS TRUE)
  endif()
  splitc_backend_is_single_process(${name} single)
  if(single)
    set(suite_file single_process.cmake)
  else()
    set(suite_file generic.cmake)
  endif()
  file(GLOB suites CONFIGURE_DEPENDS "${SPLITC_TESTS_DIR}/*/${suite_file}")
  list(SORT suites)
  foreach(suite IN LISTS suites)
    include("${suite}")
  endforeach()
endfunction()

# splitc_test_name(OUT BACKEND REST): the test's name, <backend>.<REST>, or
# <backend>.<flavour>.<REST> in a flavour (splitc_add_backend_tests FLAVOUR).
function(splitc_test_name out backend rest)
  if(SPLITC_TEST_FLAVOUR)
    set(${out} ${backend}.${SPLITC_TEST_FLAVOUR}.${rest} PARENT_SCOPE)
  else()
    set(${out} ${backend}.${rest} PARENT_SCOPE)
  endif()
endfunction()

# splitc_test_flavour_properties(TEST): the flavour's environment and labels on TEST (after
# the suite has set its own).
function(splitc_test_flavour_properties test)
  if(SPLITC_TEST_FLAVOUR)
    set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT ${SPLITC_TEST_FLAVOUR_ENVIRONMENT})
    set_property(TEST ${test} APPEND PROPERTY LABELS ${SPLITC_TEST_FLAVOUR} ${SPLITC_TEST_FLAVOUR_LABELS})
  endif()
endfunction()

# splitc_add_test_program(TARGET SOURCE BACKEND [INCLUDE_DIRECTORIES d...]): the program
# TARGET_BACKEND, built against splitc::BACKEND with the test harness (programs/harness.hpp) on
# its include path. A relative SOURCE is taken from the directory of the file that calls this.
#
# Every C++ test program of a backend is one executable, splitc-tests-BACKEND (in
# ${CMAKE_BINARY_DIR}/splitc-tests): a backend selects itself by a -D of each program, so each
# program was compiled and linked once per backend, the standard library's and the core's
# headers parsed every time (about 35 programs on 21 backends, 1.2 s each with a precompiled
# header). The driver compiles them in one source (each program in a namespace of its own,
# programs/test_driver.cmake writes it at build time), and TARGET_BACKEND is a symbolic link to
# it beside it, by which the driver knows which program to run (programs/test_driver.hpp): a
# test runs it as it ran the program, under the same name. TARGET_BACKEND is an imported
# executable, so $<TARGET_FILE:TARGET_BACKEND> names the link. INCLUDE_DIRECTORIES are added to
# the driver's.
function(splitc_add_test_program target source backend)
  cmake_parse_arguments(P "" "" "INCLUDE_DIRECTORIES" ${ARGN})
  set(exe ${target}_${backend})
  if(TARGET ${exe})
    return()
  endif()
  get_filename_component(source "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_LIST_DIR}")
  set(dir "${CMAKE_BINARY_DIR}/splitc-tests")
  set(driver splitc-tests-${backend})
  get_property(drivers GLOBAL PROPERTY SPLITC_TEST_DRIVERS)
  if(NOT driver IN_LIST drivers)
    set_property(GLOBAL APPEND PROPERTY SPLITC_TEST_DRIVERS ${driver})
    set_property(GLOBAL PROPERTY SPLITC_TEST_DRIVER_BACKEND_${driver} ${backend})
    set_property(GLOBAL PROPERTY SPLITC_TEST_DRIVER_INCLUDES_${driver} "")
    set_property(GLOBAL PROPERTY SPLITC_TEST_DRIVER_PROGRAMS_${driver} "")
    set_property(GLOBAL PROPERTY SPLITC_TEST_DRIVER_TESTS_DIR "${SPLITC_TESTS_DIR}")
    if(NOT drivers)
      cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _splitc_add_test_drivers)
    endif()
  endif()
  set_property(GLOBAL APPEND PROPERTY SPLITC_TEST_DRIVER_PROGRAMS_${driver} "${target} ${source}")
  set_property(GLOBAL APPEND PROPERTY SPLITC_TEST_DRIVER_INCLUDES_${driver}
               ${P_INCLUDE_DIRECTORIES})
  file(MAKE_DIRECTORY "${dir}")
  file(CREATE_LINK ${driver} "${dir}/${exe}" SYMBOLIC)
  add_executable(${exe} IMPORTED GLOBAL)
  set_target_properties(${exe} PROPERTIES IMPORTED_LOCATION "${dir}/${exe}")
endfunction()

# At the end of the top directory (deferred by the first splitc_add_test_program): each
# backend's driver, from every program added for it.
function(_splitc_add_test_drivers)
  get_property(drivers GLOBAL PROPERTY SPLITC_TEST_DRIVERS)
  get_property(tests_dir GLOBAL PROPERTY SPLITC_TEST_DRIVER_TESTS_DIR)
  set(dir "${CMAKE_BINARY_DIR}/splitc-tests")
  foreach(driver IN LISTS drivers)
    get_property(backend GLOBAL PROPERTY SPLITC_TEST_DRIVER_BACKEND_${driver})
    get_property(programs GLOBAL PROPERTY SPLITC_TEST_DRIVER_PROGRAMS_${driver})
    get_property(includes GLOBAL PROPERTY SPLITC_TEST_DRIVER_INCLUDES_${driver})
    set(list_file "${dir}/${driver}.programs")
    string(REPLACE ";" "\n" lines "${programs}")
    file(CONFIGURE OUTPUT "${list_file}" CONTENT "${lines}\n" @ONLY)
    set(sources "")
    foreach(program IN LISTS programs)
      string(REGEX REPLACE "^[^ ]+ " "" source "${program}")
      list(APPEND sources "${source}")
    endforeach()
    set(generated "${dir}/${driver}.cpp")
    add_custom_command(OUTPUT "${generated}"
      COMMAND ${CMAKE_COMMAND} -DPROGRAMS=${list_file} -DOUTPUT=${generated}
              -P "${tests_dir}/programs/test_driver.cmake"
      DEPENDS "${list_file}" ${sources} "${tests_dir}/programs/test_driver.cmake"
      COMMENT "Writing the source of ${driver}" VERBATIM)
    add_executable(${driver} "${generated}")
    set_target_properties(${driver} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${dir}")
    _splitc_test_compile_options(${driver})
    # A program that falls off the end of its main() returned 0; as a function of the driver it
    # would not.
    target_compile_options(${driver} PRIVATE -Werror=return-type)
    target_compile_definitions(${driver} PRIVATE SPLITC_TEST_DRIVER_BACKEND="${backend}")
    target_include_directories(${driver} PRIVATE "${tests_dir}/programs" ${includes})
    target_link_libraries(${driver} PRIVATE splitc-${backend})
  endforeach()
endfunction()

# splitc_test_backends(OUT [b...]): the backends a test runs on: the given ones (all the test
# backends when none is given), those that are being tested.
function(splitc_test_backends out)
  set(result "")
  if(ARGN)
    foreach(b IN LISTS ARGN)
      if(b IN_LIST SPLITC_TEST_BACKENDS)
        list(APPEND result ${b})
      endif()
    endforeach()
  else()
    set(result ${SPLITC_TEST_BACKENDS})
  endif()
  set(${out} ${result} PARENT_SCOPE)
endfunction()

# splitc_add_program_test(NAME SOURCE [PROCS p...] [BACKENDS b...] [ARGS a...]
#                         [NETWORK_ARGS a...] [ENVIRONMENT v=x...] [LABELS l...] [TIMEOUT s]
#                         [VARIANT v] [LAUNCHER_ARGS a...])
# builds tp_NAME_<backend> for every backend (BACKENDS, default all being tested) and
# registers <backend>.NAME.p<P> (<backend>.NAME.VARIANT.p<P> with VARIANT: the same program
# again, e.g. with another ENVIRONMENT) for every P: splitc-expect pass NAME <launcher> -n P
# tp_NAME_<backend> ARGS. PROCS defaults to the backend's process counts
# (SPLITC_TEST_PROCS_<backend>); counts beyond them are left out. NETWORK_ARGS replace ARGS on
# the backends other than smp, which are slower (smaller sizes or fewer rounds, the same
# features).
function(splitc_add_program_test name source)
  cmake_parse_arguments(T "" "TIMEOUT;VARIANT"
                        "PROCS;BACKENDS;ARGS;NETWORK_ARGS;ENVIRONMENT;LABELS;LAUNCHER_ARGS"
                        ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  get_filename_component(source "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_LIST_DIR}")
  splitc_test_backends(backends ${T_BACKENDS})
  foreach(backend IN LISTS backends)
    splitc_add_test_program(tp_${name} ${source} ${backend})
    splitc_test_launcher(${backend} run)
    set(args ${T_ARGS})
    if(NOT backend STREQUAL "smp" AND DEFINED T_NETWORK_ARGS)
      set(args ${T_NETWORK_ARGS})
    endif()
    set(procs ${SPLITC_TEST_PROCS_${backend}})
    if(T_PROCS)
      set(procs "")
      foreach(p IN LISTS T_PROCS)
        if(p IN_LIST SPLITC_TEST_PROCS_${backend})
          list(APPEND procs ${p})
        endif()
      endforeach()
    endif()
    splitc_test_name(prefix ${backend} ${name})
    if(T_VARIANT)
      set(prefix ${prefix}.${T_VARIANT})
    endif()
    foreach(p IN LISTS procs)
      set(test ${prefix}.p${p})
      add_test(NAME ${test}
        COMMAND $<TARGET_FILE:splitc-expect> pass ${name}
                ${run} -n ${p} ${T_LAUNCHER_ARGS} $<TARGET_FILE:tp_${name}_${backend}> ${args})
      set_tests_properties(${test} PROPERTIES
        LABELS "programs;${backend};generic;${T_LABELS}"
        TIMEOUT ${T_TIMEOUT})
      if(T_ENVIRONMENT)
        set_tests_properties(${test} PROPERTIES ENVIRONMENT "${T_ENVIRONMENT}")
      endif()
      splitc_test_flavour_properties(${test})
    endforeach()
  endforeach()
endfunction()

# splitc_add_failure_test(NAME PROCS P REGEX re [STATUS n] [ARGS ...] [OPTIONS ...] [TEST t]
#                         [BACKENDS b...] [REGEX_<backend> re] [STATUS_<backend> n|any]
#                         [OPTIONS_<backend> ...] [REGEX_shared_process re]
#                         [ENVIRONMENT v=x...] [PROCESSES_ONLY])
# builds xf_NAME's program NAME.cpp (beside the calling file) and registers
# <backend>.errors.TEST for every backend (BACKENDS, default all being tested). A backend
# whose launcher reports the same failure in its own words (mpirun) gets its own
# REGEX_<backend> and STATUS_<backend> ("any": any non-zero status). REGEX_shared_process
# is the words of every backend whose processors share one process (the sim and the seed
# ports' _sim variants: target property SPLITC_SHARED_PROCESS), unless it has its own.
# ENVIRONMENT is the job's (a test property); PROCESSES_ONLY leaves out those backends (a
# program that gives its processes different environments).
function(splitc_add_failure_test name)
  if(NOT SPLITC_TEST_ERROR_PATHS OR (SPLITC_TEST_FLAVOUR AND NOT SPLITC_TEST_FLAVOUR_FAILURES))
    return()
  endif()
  # Keywords for every backend that may exist, built or not.
  set(known ${SPLITC_TEST_BACKENDS} smp udp mpi mpich)
  list(REMOVE_DUPLICATES known)
  set(per_backend "")
  set(per_backend_lists "")
  foreach(b IN LISTS known)
    list(APPEND per_backend REGEX_${b} STATUS_${b})
    list(APPEND per_backend_lists OPTIONS_${b})
  endforeach()
  cmake_parse_arguments(F "PROCESSES_ONLY" "PROCS;REGEX;STATUS;TEST;REGEX_shared_process;${per_backend}"
                        "ARGS;OPTIONS;BACKENDS;ENVIRONMENT;${per_backend_lists}" ${ARGN})
  if(NOT F_TEST)
    set(F_TEST ${name})
  endif()
  splitc_test_backends(backends ${F_BACKENDS})
  foreach(backend IN LISTS backends)
    splitc_add_test_program(${name} "${CMAKE_CURRENT_LIST_DIR}/${name}.cpp" ${backend})
    splitc_test_launcher(${backend} run)
    set(regex "${F_REGEX}")
    get_target_property(shared_process splitc-${backend} SPLITC_SHARED_PROCESS)
    if(shared_process AND F_PROCESSES_ONLY)
      continue()
    endif()
    if(DEFINED F_REGEX_${backend})
      set(regex "${F_REGEX_${backend}}")
    elseif(shared_process AND DEFINED F_REGEX_shared_process)
      set(regex "${F_REGEX_shared_process}")
    endif()
    set(status "${F_STATUS}")
    if(DEFINED F_STATUS_${backend})
      set(status "${F_STATUS_${backend}}")
    endif()
    set(options --regex "${regex}" --program ${name}_${backend} ${F_OPTIONS} ${F_OPTIONS_${backend}})
    if(NOT status STREQUAL "" AND NOT status STREQUAL "any")
      list(APPEND options --status ${status})
    endif()
    # A splitc error (status 70) is its processor's own account: no watcher adds a second,
    # misleading one of its end (issue 45). (A death by a signal is the watcher's to name.)
    if(status STREQUAL "70")
      list(APPEND options --absent "ended before reaching finalize")
    endif()
    splitc_test_name(test ${backend} errors.${F_TEST})
    add_test(NAME ${test}
      COMMAND $<TARGET_FILE:splitc-expect> failure ${options}
              -- ${run} -n ${F_PROCS} $<TARGET_FILE:${name}_${backend}> ${F_ARGS})
    # splitc-expect checks afterwards that no process of the program is left (by its name): the
    # tests that run one program (two TESTs of it, or a flavour) take turns.
    set_tests_properties(${test} PROPERTIES LABELS "errors;${backend};generic" TIMEOUT 120
                                            RESOURCE_LOCK ${name}_${backend})
    if(F_ENVIRONMENT)
      set_tests_properties(${test} PROPERTIES ENVIRONMENT "${F_ENVIRONMENT}")
    endif()
    splitc_test_flavour_properties(${test})
  endforeach()
endfunction()
