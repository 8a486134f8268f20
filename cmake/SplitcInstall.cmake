# Installation and packaging: headers, libraries, the launcher, a CMake
# package (find_package(splitc)) and one pkg-config file per backend.
#
# Included at the end of the top-level CMakeLists.txt, once every backend has
# been added (the backends are read from the SPLITC_BACKENDS global property).
include_guard(GLOBAL)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(SPLITC_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/splitc"
  CACHE STRING "Where splitcConfig.cmake is installed (relative to the prefix)")
mark_as_advanced(SPLITC_INSTALL_CMAKEDIR)

get_property(_splitc_backends GLOBAL PROPERTY SPLITC_BACKENDS)
get_property(_splitc_vehicles GLOBAL PROPERTY SPLITC_TEST_VEHICLES)
if(_splitc_vehicles)
  list(REMOVE_ITEM _splitc_backends ${_splitc_vehicles})  # boundary test vehicles stay here
endif()
if(NOT _splitc_backends)
  message(FATAL_ERROR "SplitcInstall: no backend registered (SPLITC_BACKENDS is empty)")
endif()
if(NOT SPLITC_DEFAULT_BACKEND IN_LIST _splitc_backends)
  message(FATAL_ERROR "SplitcInstall: SPLITC_DEFAULT_BACKEND='${SPLITC_DEFAULT_BACKEND}' "
    "is not one of the backends: ${_splitc_backends}")
endif()

# --- headers -----------------------------------------------------------------
# include/ holds include/splitc/** (and include/splitc.h, the C interface, when
# it exists); each backend adds ports/<port>/include/**.
set(_splitc_header_excludes PATTERN "CMakeLists.txt" EXCLUDE PATTERN "*~" EXCLUDE
  PATTERN ".*" EXCLUDE)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
  COMPONENT splitc_development
  ${_splitc_header_excludes})
foreach(_b IN LISTS _splitc_backends)
  splitc_install_backend_headers(${_b})   # include/** and include/splitc-<b>/ (the selection)
endforeach()

# --- libraries and the launcher ----------------------------------------------
set(_splitc_install_targets splitc_headers splitc-main)
foreach(_b IN LISTS _splitc_backends)
  list(APPEND _splitc_install_targets splitc-${_b})
  if(TARGET splitc-run-${_b})
    list(APPEND _splitc_install_targets splitc-run-${_b})  # what `splitc-run --backend ${_b}` runs
  endif()
endforeach()
# Libraries that backends link and that are built here (the sim engine, the emulated vendor
# layers): each registers itself in SPLITC_INSTALL_EXTRA_TARGETS.
get_property(_splitc_extra GLOBAL PROPERTY SPLITC_INSTALL_EXTRA_TARGETS)
list(APPEND _splitc_install_targets ${_splitc_extra})
if(TARGET splitc-run)
  list(APPEND _splitc_install_targets splitc-run)   # imported as splitc::splitc-run
endif()
install(TARGETS ${_splitc_install_targets}
  EXPORT splitcTargets
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT splitc_development
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT splitc_runtime
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT splitc_runtime
  INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(EXPORT splitcTargets
  NAMESPACE splitc::
  FILE splitcTargets.cmake
  DESTINATION "${SPLITC_INSTALL_CMAKEDIR}"
  COMPONENT splitc_development)

foreach(_f LICENSE README.md PORTING.md)
  if(EXISTS "${PROJECT_SOURCE_DIR}/${_f}")
    install(FILES "${PROJECT_SOURCE_DIR}/${_f}" DESTINATION "${CMAKE_INSTALL_DOCDIR}"
      COMPONENT splitc_development)
  endif()
endforeach()

# --- what a consumer must also find ------------------------------------------
# (_splitc_map_deps and _splitc_link_items: cmake/SplitcPkgConfig.cmake)
_splitc_link_items(splitc_headers _splitc_header_items)

# --- what splitc_add_backend needs outside this tree -------------------------
# The core's sources, the launcher's, the porting suite's and the generic test
# suites (with the harness and scripts of tests/programs), in
# share/splitc/<same path as here>; the CMake functions beside splitcConfig.cmake.
set(SPLITC_INSTALL_DATADIR "${CMAKE_INSTALL_DATADIR}/splitc")
set(SPLITC_CONFIG_CORE_SOURCES "")
foreach(_src IN LISTS SPLITC_CORE_SOURCES SPLITC_LAUNCHER_SOURCE SPLITC_LAUNCHER_CLI_SOURCE
                ITEMS "${PROJECT_SOURCE_DIR}/tools/launcher_cli.hpp")
  file(RELATIVE_PATH _rel "${PROJECT_SOURCE_DIR}" "${_src}")
  get_filename_component(_rel_dir "${_rel}" DIRECTORY)
  install(FILES "${_src}" DESTINATION "${SPLITC_INSTALL_DATADIR}/${_rel_dir}"
    COMPONENT splitc_development)
  if(_src IN_LIST SPLITC_CORE_SOURCES)
    list(APPEND SPLITC_CONFIG_CORE_SOURCES "${_rel}")
  endif()
endforeach()
file(RELATIVE_PATH SPLITC_CONFIG_LAUNCHER_SOURCE "${PROJECT_SOURCE_DIR}" "${SPLITC_LAUNCHER_SOURCE}")
file(RELATIVE_PATH SPLITC_CONFIG_LAUNCHER_CLI_SOURCE "${PROJECT_SOURCE_DIR}"
     "${SPLITC_LAUNCHER_CLI_SOURCE}")
set(_splitc_source_excludes PATTERN "CMakeLists.txt" EXCLUDE PATTERN "*~" EXCLUDE
  PATTERN ".*" EXCLUDE)
install(DIRECTORY "${SPLITC_BENCH_SOURCE_DIR}/" DESTINATION "${SPLITC_INSTALL_DATADIR}/bench"
  COMPONENT splitc_development ${_splitc_source_excludes})
file(GLOB _splitc_suites "${SPLITC_TESTS_DIR}/*/generic.cmake"
  "${SPLITC_TESTS_DIR}/*/single_process.cmake")
set(_splitc_suite_dirs "")
foreach(_suite IN LISTS _splitc_suites)
  get_filename_component(_suite_dir "${_suite}" DIRECTORY)
  list(APPEND _splitc_suite_dirs "${_suite_dir}")
endforeach()
list(REMOVE_DUPLICATES _splitc_suite_dirs)
foreach(_suite_dir IN LISTS _splitc_suite_dirs)
  get_filename_component(_suite_name "${_suite_dir}" NAME)
  install(DIRECTORY "${_suite_dir}/" DESTINATION "${SPLITC_INSTALL_DATADIR}/tests/${_suite_name}"
    COMPONENT splitc_development USE_SOURCE_PERMISSIONS ${_splitc_source_excludes})
endforeach()
install(FILES
  "${PROJECT_SOURCE_DIR}/cmake/SplitcBackend.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/SplitcPkgConfig.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/SplitcBench.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/SplitcTests.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/splitc-backend-selection.hpp.in"
  "${PROJECT_SOURCE_DIR}/cmake/splitc-backend.pc.in"
  DESTINATION "${SPLITC_INSTALL_CMAKEDIR}"
  COMPONENT splitc_development)
_splitc_cxx_runtime(SPLITC_PC_CXX_RUNTIME)

# --- CMake package -----------------------------------------------------------
# fmt and Threads always; then whatever any installed library links.
set(_splitc_all_items fmt::fmt Threads::Threads ${_splitc_header_items})
foreach(_b IN LISTS _splitc_backends)
  _splitc_link_items(splitc-${_b} _items)
  list(APPEND _splitc_all_items ${_items})
endforeach()
_splitc_map_deps(_splitc_cfg ${_splitc_all_items})
list(JOIN _splitc_cfg_CMAKE "\n" SPLITC_CONFIG_FIND_DEPENDENCIES)
set(SPLITC_CONFIG_BACKENDS "${_splitc_backends}")

configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/splitcConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/splitcConfig.cmake"
  INSTALL_DESTINATION "${SPLITC_INSTALL_CMAKEDIR}"
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR SPLITC_INSTALL_DATADIR)
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/splitcConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}"
  COMPATIBILITY SameMajorVersion)
install(FILES
  "${PROJECT_BINARY_DIR}/splitcConfig.cmake"
  "${PROJECT_BINARY_DIR}/splitcConfigVersion.cmake"
  DESTINATION "${SPLITC_INSTALL_CMAKEDIR}"
  COMPONENT splitc_development)

# --- pkg-config: splitc-<backend>.pc, splitc-main.pc ---------------------------
# (splitc_backend_pkg_config: cmake/SplitcPkgConfig.cmake, also used outside this tree.)
foreach(_b IN LISTS _splitc_backends)
  splitc_backend_pkg_config(${_b})
endforeach()

# splitc-main.pc: the entry-point library alone (main() calling splitc_main).
# It names no backend; `pkg-config --libs splitc-main splitc-<backend>` puts
# it before the backend's library, as a static link needs.
_splitc_pc_dirs()
get_target_property(_out splitc-main OUTPUT_NAME)
if(NOT _out)
  set(_out splitc-main)
endif()
set(SPLITC_PC_LIBNAME "${_out}")
configure_file("${PROJECT_SOURCE_DIR}/cmake/splitc-main.pc.in"
  "${PROJECT_BINARY_DIR}/pkgconfig/splitc-main.pc.in" @ONLY)
splitc_install_pc("${PROJECT_BINARY_DIR}/pkgconfig/splitc-main.pc.in")
