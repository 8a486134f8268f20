# SplitcSplitC.cmake: Split-C programs in a CMake project, through the
# installed splitcc (docs/splitcc.md, "New projects"). Installed beside the
# splitc CMake package; include it by path:
#
#   include(<prefix>/lib/cmake/splitc/SplitcSplitC.cmake)
#   splitc_add_splitc_executable(em3d SOURCES em3d.sc graph.sc
#                                [BACKEND udp] [OPTIONS -O2 -Wall])
#
# Each source is compiled by `splitcc -c` (headers it includes are tracked
# by the Makefile generators), the objects linked by `splitcc -backend B`
# (default: SPLITC_BACKEND in the environment at build time, else smp).
include_guard(GLOBAL)
get_filename_component(_splitc_splitcc_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
find_program(SPLITC_SPLITCC splitcc HINTS "${_splitc_splitcc_prefix}/bin" NO_DEFAULT_PATH)
find_program(SPLITC_SPLITCC splitcc)

function(splitc_add_splitc_executable name)
  cmake_parse_arguments(A "" "BACKEND" "SOURCES;OPTIONS" ${ARGN})
  if(NOT SPLITC_SPLITCC)
    message(FATAL_ERROR "splitc_add_splitc_executable: splitcc not found (looked in ${_splitc_splitcc_prefix}/bin)")
  endif()
  if(NOT A_SOURCES)
    message(FATAL_ERROR "splitc_add_splitc_executable(${name}): no SOURCES")
  endif()
  set(backend_args "")
  if(A_BACKEND)
    set(backend_args -backend ${A_BACKEND})
  endif()
  set(objects "")
  foreach(src IN LISTS A_SOURCES)
    get_filename_component(abs "${src}" ABSOLUTE)
    get_filename_component(stem "${src}" NAME_WE)
    set(obj "${CMAKE_CURRENT_BINARY_DIR}/${name}.splitcc/${stem}.o")
    add_custom_command(OUTPUT "${obj}"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${CMAKE_CURRENT_BINARY_DIR}/${name}.splitcc"
      COMMAND "${SPLITC_SPLITCC}" ${A_OPTIONS} -c "${abs}" -o "${obj}"
      DEPENDS "${abs}" IMPLICIT_DEPENDS C "${abs}"
      COMMENT "splitcc ${src}" VERBATIM)
    list(APPEND objects "${obj}")
  endforeach()
  set(exe "${CMAKE_CURRENT_BINARY_DIR}/${name}")
  add_custom_command(OUTPUT "${exe}"
    COMMAND "${SPLITC_SPLITCC}" ${backend_args} -o "${exe}" ${objects}
    DEPENDS ${objects} COMMENT "splitcc: linking ${name}" VERBATIM)
  add_custom_target(${name} ALL DEPENDS "${exe}")
  set_target_properties(${name} PROPERTIES SPLITC_EXECUTABLE "${exe}")
endfunction()
