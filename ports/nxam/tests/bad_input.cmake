# nxam_bad_input_tests(PORT LAYER): the bad-input tests of an NXAM port
# (tests/nxam_bad_input.cpp) on its Open MPI variant, through splitc-run;
# label "<port>;errors". LAYER: NX or MPL. Expected texts by layer:
set(_NXAM_TESTS_DIR ${CMAKE_CURRENT_LIST_DIR})
set(_nxam_too_long_NX "nx: msgdone failed on processor 0: EQMSGLONG")
set(_nxam_too_long_MPL "mpl: mpc_status failed on processor 0: MPE_TRUNC")
function(nxam_bad_input_tests port layer)
  if(NOT SPLITC_BUILD_TESTS OR NOT TARGET splitc-${port})
    return()
  endif()
  add_executable(nxam_bad_input_${port} ${_NXAM_TESTS_DIR}/nxam_bad_input.cpp)
  target_link_libraries(nxam_bad_input_${port} PRIVATE splitc-${port})
  target_compile_definitions(nxam_bad_input_${port} PRIVATE NXAM_LAYER_${layer}=1)
  string(TOLOWER ${layer} emulation)
  target_include_directories(nxam_bad_input_${port} PRIVATE
    ${PROJECT_SOURCE_DIR}/emulations/${emulation}/include)
  set(run $<TARGET_FILE:splitc-expect> mpi)
  set(cmd $<TARGET_FILE:splitc-run> --backend ${port} -n 2 $<TARGET_FILE:nxam_bad_input_${port}>)
  add_test(NAME ${port}.errors.layer_too_long
    COMMAND ${run} "fail:${_nxam_too_long_${layer}}" 60 ${cmd} too-long)
  add_test(NAME ${port}.errors.layer_foreign
    COMMAND ${run}
      "fail:${port}: processor 0 received a message of NXAM's type 1000 that is not an NXAM packet|${emulation}: processor 0 received a message of NXAM's type 1000 that is not an NXAM packet"
      60 ${cmd} foreign)
  set_tests_properties(${port}.errors.layer_too_long ${port}.errors.layer_foreign PROPERTIES
    LABELS "${port};errors" TIMEOUT 90)
endfunction()
