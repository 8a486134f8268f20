# What a SINGLE_PROCESS backend (the template, until it carries messages) must do, on one
# such backend at a time (included by splitc_add_backend_tests, cmake/SplitcTests.cmake, in
# this tree and outside it): a job of one passes; a job of two fails with "no path to peer",
# through its launcher and started plainly (SPLITC_PROCS=2); the C interface's test program
# compiles and links against it.
foreach(backend IN LISTS SPLITC_TEST_BACKENDS)
  splitc_add_test_program(tp_plain_start plain_start.cpp ${backend})
  splitc_test_launcher(${backend} run)
  set(exe $<TARGET_FILE:tp_plain_start_${backend}>)
  add_test(NAME ${backend}.plain_start.p1
    COMMAND $<TARGET_FILE:splitc-expect> pass plain_start
            ${run} -n 1 ${exe} 1)
  add_test(NAME ${backend}.errors.no_path_to_peer.p2
    COMMAND $<TARGET_FILE:splitc-expect> failure
            --regex "no path to peer" -- ${run} -n 2 ${exe} 2)
  add_test(NAME ${backend}.errors.no_path_to_peer.plain_procs2
    COMMAND $<TARGET_FILE:splitc-expect> failure
            --regex "no path to peer"
            -- ${CMAKE_COMMAND} -E env --unset=SPLITC_JOB --unset=SPLITC_SMP_FD
               --unset=SPLITC_MYPROC SPLITC_PROCS=2 ${exe} 2)
  set_tests_properties(${backend}.plain_start.p1 ${backend}.errors.no_path_to_peer.p2
                       ${backend}.errors.no_path_to_peer.plain_procs2
    PROPERTIES LABELS "programs;${backend};single_process" TIMEOUT 120)

  if(CMAKE_C_COMPILER_LOADED)
    add_executable(c_api_test_${backend} ${SPLITC_TESTS_DIR}/c_interface/c_api_test.c)
    set_target_properties(c_api_test_${backend} PROPERTIES C_STANDARD 11 LINKER_LANGUAGE CXX)
    target_compile_options(c_api_test_${backend} PRIVATE -Wall -Wextra -Werror)
    target_link_libraries(c_api_test_${backend} PRIVATE splitc::main splitc-${backend})
  endif()
endforeach()
