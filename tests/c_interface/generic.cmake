# The C interface on one backend at a time (included by splitc_add_backend_tests,
# cmake/SplitcTests.cmake; needs the C language): a C11 program, compiled with
# -Wall -Wextra -Werror, that calls every name of splitc.h, run through the launcher at the
# backend's process counts; and the expected failures of bad calls.
if(NOT CMAKE_C_COMPILER_LOADED)
  return()
endif()
foreach(backend IN LISTS SPLITC_TEST_BACKENDS)
  if(NOT TARGET c_api_test_${backend})  # made once; a flavour runs it again
    add_executable(c_api_test_${backend} ${CMAKE_CURRENT_LIST_DIR}/c_api_test.c)
    set_target_properties(c_api_test_${backend} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON
                                                           C_EXTENSIONS OFF LINKER_LANGUAGE CXX)
    target_compile_options(c_api_test_${backend} PRIVATE -Wall -Wextra -pedantic -Werror)
    target_link_libraries(c_api_test_${backend} PRIVATE splitc::main splitc-${backend})
  endif()
  splitc_test_launcher(${backend} run)
  foreach(procs IN LISTS SPLITC_TEST_PROCS_${backend})
    splitc_test_name(test ${backend} c_api.p${procs})
    add_test(NAME ${test}
             COMMAND $<TARGET_FILE:splitc-expect> pass
                     c_api ${run} -n ${procs} $<TARGET_FILE:c_api_test_${backend}>)
    set_tests_properties(${test} PROPERTIES TIMEOUT 120 LABELS "c_interface;${backend};generic")
    splitc_test_flavour_properties(${test})
  endforeach()
endforeach()

# a TEST_VEHICLE's error paths are its transport's; a flavour repeats no argument check
if(NOT SPLITC_TEST_ERROR_PATHS OR SPLITC_TEST_FLAVOUR)
  return()
endif()
# Expected failures (label "errors"): processor 1 of 2 makes one bad call of the C interface
# (xf_c_counts.c, the case named by its argument) and the job must end with status 70 and a
# message naming the call the program made and the bad value. Every case on smp; the first
# two on every backend.
set(_xf_cases
  "store_sync_ctr|store_sync_ctr: negative byte count -4"
  "i_read|__i_read: processor number 3 is out of range"
  "store_sync|store_sync: negative byte count -8"
  "is_store_sync|is_store_sync: negative byte count -1"
  "d_store_ctr|__d_store_ctr: processor number -1 is out of range"
  "bulk_get_ctr|bulk_get_ctr: impossible length -1 bytes"
  "bulk_store_ctr|bulk_store_ctr: impossible length -16 bytes"
  "spread_malloc|spread_malloc: negative count -3"
  "team_all_gatherv_ctr|team_all_gatherv_ctr: negative length -4"
  "atomic_i|atomic_i: 9 arguments after the global pointer")
foreach(backend IN LISTS SPLITC_TEST_BACKENDS)
  add_executable(xf_c_counts_${backend} ${CMAKE_CURRENT_LIST_DIR}/xf_c_counts.c)
  target_compile_options(xf_c_counts_${backend} PRIVATE -Wall -Wextra -pedantic -Werror)
  target_link_libraries(xf_c_counts_${backend} PRIVATE splitc::main splitc-${backend})
  splitc_test_launcher(${backend} run)
  set(index 0)
  foreach(entry IN LISTS _xf_cases)
    if(index GREATER_EQUAL 2 AND NOT backend STREQUAL "smp")
      break()
    endif()
    string(REPLACE "|" ";" parts "${entry}")
    list(GET parts 0 case)
    list(GET parts 1 message)
    set(test ${backend}.errors.c_${case})
    add_test(NAME ${test}
      COMMAND $<TARGET_FILE:splitc-expect> failure
              --status 70 --regex "processor 1 of 2: ${message}"
              --program xf_c_counts_${backend}
              -- ${run} -n 2 $<TARGET_FILE:xf_c_counts_${backend}> ${case})
    set_tests_properties(${test} PROPERTIES LABELS "errors;c_interface;${backend};generic"
                                            TIMEOUT 120)
    math(EXPR index "${index} + 1")
  endforeach()
endforeach()
