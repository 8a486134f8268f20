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
if(NOT _splitc_backends)
  message(FATAL_ERROR "SplitcInstall: no backend registered (SPLITC_BACKENDS is empty)")
endif()
if(NOT SPLITC_DEFAULT_BACKEND IN_LIST _splitc_backends)
  message(FATAL_ERROR "SplitcInstall: SPLITC_DEFAULT_BACKEND='${SPLITC_DEFAULT_BACKEND}' "
    "is not one of the backends: ${_splitc_backends}")
endif()

# --- headers -----------------------------------------------------------------
# include/ holds include/splitc/** (and include/splitc.h, the C interface, when
# it exists); each backend adds backends/<name>/include/**.
set(_splitc_header_excludes PATTERN "CMakeLists.txt" EXCLUDE PATTERN "*~" EXCLUDE
  PATTERN ".*" EXCLUDE)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
  COMPONENT splitc_development
  ${_splitc_header_excludes})
foreach(_b IN LISTS _splitc_backends)
  get_target_property(_dir splitc-${_b} SOURCE_DIR)
  if(IS_DIRECTORY "${_dir}/include")
    install(DIRECTORY "${_dir}/include/"
      DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
      COMPONENT splitc_development
      ${_splitc_header_excludes})
  endif()
endforeach()

# --- libraries and the launcher ----------------------------------------------
set(_splitc_install_targets splitc_headers splitc-main)
foreach(_b IN LISTS _splitc_backends)
  list(APPEND _splitc_install_targets splitc-${_b})
  if(TARGET splitc-run-${_b})
    list(APPEND _splitc_install_targets splitc-run-${_b})  # what `splitc-run --backend ${_b}` runs
  endif()
endforeach()
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
# The backend libraries are static, so everything they link (PRIVATE included)
# reaches the consumer's link line. Translate each link item into a
# find_dependency() call for the CMake package and into Requires/Libs for
# pkg-config. An item not known here is reported so that a mapping is added.
#   _splitc_map_deps(<out-prefix> <link items...>)
#   sets <out-prefix>_CMAKE (find_dependency lines), _REQUIRES, _LIBS (lists)
function(_splitc_map_deps out)
  set(cmake_deps "")
  set(requires "")
  set(libs "")
  set(boost_components "")
  foreach(item IN LISTS ARGN)
    if(item MATCHES "^\\$<LINK_ONLY:(.*)>$")
      set(item "${CMAKE_MATCH_1}")
    endif()
    if(item STREQUAL "" OR item MATCHES "^splitc([_:-]|$)")
      continue()
    elseif(item MATCHES "^\\$<")
      message(WARNING "SplitcInstall: link item '${item}' (a generator expression) "
        "is not translated for find_package/pkg-config users")
    elseif(item MATCHES "^fmt::")
      list(APPEND cmake_deps "find_dependency(fmt)")
      list(APPEND requires fmt)
    elseif(item STREQUAL "Threads::Threads")
      list(APPEND cmake_deps "find_dependency(Threads)")
      list(APPEND libs -pthread)
    elseif(item MATCHES "^Boost::(headers|boost|disable_autolinking|dynamic_linking|diagnostic_definitions)$")
      list(APPEND cmake_deps "find_dependency(Boost)")
    elseif(item MATCHES "^Boost::(.+)$")
      list(APPEND boost_components "${CMAKE_MATCH_1}")
      list(APPEND libs "-lboost_${CMAKE_MATCH_1}")
    elseif(item MATCHES "^nlohmann_json::")
      list(APPEND cmake_deps "find_dependency(nlohmann_json)")
      list(APPEND requires nlohmann_json)
    elseif(item MATCHES "^CLI11::")
      list(APPEND cmake_deps "find_dependency(CLI11)")
      list(APPEND requires CLI11)
    elseif(item MATCHES "^-")
      list(APPEND libs "${item}")
    elseif(item MATCHES "^[A-Za-z0-9_+.]+$" AND NOT TARGET "${item}")
      list(APPEND libs "-l${item}")             # a system library: rt, dl, atomic, ...
    else()
      message(WARNING "SplitcInstall: do not know how a consumer finds link item "
        "'${item}'; add it to _splitc_map_deps in cmake/SplitcInstall.cmake")
    endif()
  endforeach()
  if(boost_components)
    list(REMOVE_DUPLICATES boost_components)
    list(JOIN boost_components " " comps)
    list(APPEND cmake_deps "find_dependency(Boost COMPONENTS ${comps})")
  endif()
  foreach(v cmake_deps requires libs)
    if(${v})
      list(REMOVE_DUPLICATES ${v})
    endif()
  endforeach()
  set(${out}_CMAKE "${cmake_deps}" PARENT_SCOPE)
  set(${out}_REQUIRES "${requires}" PARENT_SCOPE)
  set(${out}_LIBS "${libs}" PARENT_SCOPE)
endfunction()

function(_splitc_link_items target out)
  set(items "")
  foreach(prop LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
    get_target_property(v ${target} ${prop})
    if(v)
      list(APPEND items ${v})
    endif()
  endforeach()
  set(${out} "${items}" PARENT_SCOPE)
endfunction()

_splitc_link_items(splitc_headers _splitc_header_items)

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
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR)
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
# _splitc_install_pc(<name>): install ${_splitc_pc_dir}/<name>.pc.in as
# <name>.pc with the install prefix filled in.
function(_splitc_install_pc name)
  install(CODE "
    file(READ \"${_splitc_pc_dir}/${name}.pc.in\" _splitc_pc)
    string(REPLACE \"@SPLITC_PC_PREFIX@\" \"\${CMAKE_INSTALL_PREFIX}\" _splitc_pc \"\${_splitc_pc}\")
    file(WRITE \"${_splitc_pc_dir}/install/${name}.pc\" \"\${_splitc_pc}\")
    file(INSTALL DESTINATION \"${_splitc_pc_dest}\"
      TYPE FILE FILES \"${_splitc_pc_dir}/install/${name}.pc\")"
    COMPONENT splitc_development)
endfunction()
# The file is configured now with every field but the prefix, which is filled
# in at install time so that `cmake --install build --prefix DIR` (and DESTDIR
# staging) yields a .pc naming the real prefix.
set(SPLITC_PC_PREFIX "@SPLITC_PC_PREFIX@")   # kept for the install-time pass
foreach(_dirvar LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${_dirvar}}")
    set(SPLITC_PC_${_dirvar} "${CMAKE_INSTALL_${_dirvar}}")
  else()
    set(SPLITC_PC_${_dirvar} "\${prefix}/${CMAKE_INSTALL_${_dirvar}}")
  endif()
endforeach()
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(_splitc_pc_dest "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
else()
  set(_splitc_pc_dest "\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig")
endif()
set(_splitc_pc_dir "${PROJECT_BINARY_DIR}/pkgconfig")

# The libraries are C++ and static: a program linked by the C compiler
# (`cc prog.c $(pkg-config ...)`) must name the C++ runtime itself. It is what
# the C++ compiler links implicitly and the C compiler does not (libstdc++ and
# libm with g++; libc++ and friends with clang++ -stdlib=libc++), taken from
# CMake's record of both compilers' implicit link lines, with any directory
# the C++ compiler searches and the C compiler does not.
set(_splitc_cxx_runtime "")
foreach(_l IN LISTS CMAKE_CXX_IMPLICIT_LINK_LIBRARIES)
  if(NOT _l IN_LIST CMAKE_C_IMPLICIT_LINK_LIBRARIES AND NOT "-l${_l}" IN_LIST _splitc_cxx_runtime)
    if(_l MATCHES "^-" OR IS_ABSOLUTE "${_l}")
      list(APPEND _splitc_cxx_runtime "${_l}")
    else()
      list(APPEND _splitc_cxx_runtime "-l${_l}")
    endif()
  endif()
endforeach()
foreach(_d IN LISTS CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES)
  if(NOT _d IN_LIST CMAKE_C_IMPLICIT_LINK_DIRECTORIES)
    list(PREPEND _splitc_cxx_runtime "-L${_d}")
  endif()
endforeach()
if(NOT _splitc_cxx_runtime)
  # No record (a C compiler that links the C++ runtime itself would be odd):
  # the GNU toolchain's names.
  set(_splitc_cxx_runtime -lstdc++ -lm)
endif()
list(JOIN _splitc_cxx_runtime " " SPLITC_PC_CXX_RUNTIME)

foreach(_b IN LISTS _splitc_backends)
  _splitc_link_items(splitc-${_b} _items)
  _splitc_map_deps(_pc fmt::fmt Threads::Threads ${_splitc_header_items} ${_items})
  set(SPLITC_PC_BACKEND "${_b}")
  string(TOUPPER "${_b}" SPLITC_PC_BACKEND_UPPER)
  get_target_property(_out splitc-${_b} OUTPUT_NAME)
  if(NOT _out)
    set(_out splitc-${_b})
  endif()
  set(SPLITC_PC_LIBNAME "${_out}")
  list(JOIN _pc_REQUIRES ", " SPLITC_PC_REQUIRES)
  list(JOIN _pc_LIBS " " SPLITC_PC_LIBS)
  # What a backend adds beyond its own define: other public definitions and
  # system include directories (MPI's, for the mpi backends).
  set(SPLITC_PC_CFLAGS "")
  get_target_property(_defs splitc-${_b} INTERFACE_COMPILE_DEFINITIONS)
  foreach(_d IN LISTS _defs)
    if(_d AND NOT _d MATCHES "^SPLITC_BACKEND_${SPLITC_PC_BACKEND_UPPER}=" AND NOT _d MATCHES "[$<]")
      string(APPEND SPLITC_PC_CFLAGS " -D${_d}")
    endif()
  endforeach()
  get_target_property(_incs splitc-${_b} INTERFACE_INCLUDE_DIRECTORIES)
  foreach(_i IN LISTS _incs)
    if(_i AND IS_ABSOLUTE "${_i}" AND NOT _i MATCHES "^${PROJECT_SOURCE_DIR}" AND NOT _i MATCHES "[$<]")
      string(APPEND SPLITC_PC_CFLAGS " -I${_i}")
    endif()
  endforeach()
  configure_file("${PROJECT_SOURCE_DIR}/cmake/splitc-backend.pc.in"
    "${_splitc_pc_dir}/splitc-${_b}.pc.in" @ONLY)
  _splitc_install_pc(splitc-${_b})
endforeach()

# splitc-main.pc: the entry-point library alone (main() calling splitc_main).
# It names no backend; `pkg-config --libs splitc-main splitc-<backend>` puts
# it before the backend's library, as a static link needs.
get_target_property(_out splitc-main OUTPUT_NAME)
if(NOT _out)
  set(_out splitc-main)
endif()
set(SPLITC_PC_LIBNAME "${_out}")
configure_file("${PROJECT_SOURCE_DIR}/cmake/splitc-main.pc.in"
  "${_splitc_pc_dir}/splitc-main.pc.in" @ONLY)
_splitc_install_pc(splitc-main)
