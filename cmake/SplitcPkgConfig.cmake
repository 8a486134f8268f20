# pkg-config files of the backends (splitc-<name>.pc), made the same way in
# this tree (cmake/SplitcInstall.cmake, for every registered backend) and
# outside it (splitc_add_backend after find_package(splitc)):
#   splitc_backend_pkg_config(NAME)    configure and install splitc-NAME.pc
#   splitc_install_pc(FILE.pc.in)      install a configured .pc.in with the
#                                      install prefix filled in at install time
#   _splitc_map_deps, _splitc_link_items  what a consumer of a static library must also find
include_guard(GLOBAL)
include(GNUInstallDirs)

set(_SPLITC_PKG_CONFIG_MODULE_DIR "${CMAKE_CURRENT_LIST_DIR}")

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
        "'${item}'; add it to _splitc_map_deps in cmake/SplitcPkgConfig.cmake")
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

# The libraries are C++ and static: a program linked by the C compiler
# (`cc prog.c $(pkg-config ...)`) must name the C++ runtime itself. It is what
# the C++ compiler links implicitly and the C compiler does not (libstdc++ and
# libm with g++; libc++ and friends with clang++ -stdlib=libc++), taken from
# CMake's record of both compilers' implicit link lines, with any directory
# the C++ compiler searches and the C compiler does not.
#   _splitc_cxx_runtime(OUT): OUT = those flags, one string
function(_splitc_cxx_runtime out)
  set(runtime "")
  foreach(l IN LISTS CMAKE_CXX_IMPLICIT_LINK_LIBRARIES)
    if(NOT l IN_LIST CMAKE_C_IMPLICIT_LINK_LIBRARIES AND NOT "-l${l}" IN_LIST runtime)
      if(l MATCHES "^-" OR IS_ABSOLUTE "${l}")
        list(APPEND runtime "${l}")
      else()
        list(APPEND runtime "-l${l}")
      endif()
    endif()
  endforeach()
  foreach(d IN LISTS CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES)
    if(NOT d IN_LIST CMAKE_C_IMPLICIT_LINK_DIRECTORIES)
      list(PREPEND runtime "-L${d}")
    endif()
  endforeach()
  if(NOT runtime OR NOT CMAKE_C_COMPILER_LOADED)
    # No record (a C compiler that links the C++ runtime itself would be odd,
    # and a project without C has none): the GNU toolchain's names.
    set(runtime -lstdc++ -lm)
  endif()
  list(JOIN runtime " " joined)
  set(${out} "${joined}" PARENT_SCOPE)
endfunction()

# splitc_install_pkg_config(PC_IN): install PC_IN (a configured NAME.pc.in
# whose prefix is the placeholder @SPLITC_PC_PREFIX@) as NAME.pc with the
# prefix given to `cmake --install` (DESTDIR staging included).
function(splitc_install_pc pc_in)
  get_filename_component(dir "${pc_in}" DIRECTORY)
  get_filename_component(file "${pc_in}" NAME)
  string(REGEX REPLACE "\\.in$" "" pc "${file}")
  if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
    set(dest "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
  else()
    set(dest "\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig")
  endif()
  # The file is staged in a directory named for the prefix, so that two
  # installs of this build into different prefixes at once (the packaging
  # tests) do not write the same file.
  install(CODE "
    file(READ \"${pc_in}\" _splitc_pc)
    string(REPLACE \"@SPLITC_PC_PREFIX@\" \"\${CMAKE_INSTALL_PREFIX}\" _splitc_pc \"\${_splitc_pc}\")
    string(MD5 _splitc_stage \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}\")
    file(WRITE \"${dir}/install-\${_splitc_stage}/${pc}\" \"\${_splitc_pc}\")
    file(INSTALL DESTINATION \"${dest}\" TYPE FILE FILES \"${dir}/install-\${_splitc_stage}/${pc}\")"
    COMPONENT splitc_development)
endfunction()

# _splitc_pc_dirs(): SPLITC_PC_LIBDIR and SPLITC_PC_INCLUDEDIR in the caller,
# relative to ${prefix} where the install directories are relative.
macro(_splitc_pc_dirs)
  set(SPLITC_PC_PREFIX "@SPLITC_PC_PREFIX@")   # filled in at install time
  foreach(_splitc_dirvar LIBDIR INCLUDEDIR)
    if(IS_ABSOLUTE "${CMAKE_INSTALL_${_splitc_dirvar}}")
      set(SPLITC_PC_${_splitc_dirvar} "${CMAKE_INSTALL_${_splitc_dirvar}}")
    else()
      set(SPLITC_PC_${_splitc_dirvar} "\${prefix}/${CMAKE_INSTALL_${_splitc_dirvar}}")
    endif()
  endforeach()
endmacro()

# splitc_backend_pkg_config(NAME): splitc-NAME.pc for the library splitc-NAME:
# its own define and selection directory, the splitc headers, what it links,
# the C++ runtime.
function(splitc_backend_pkg_config name)
  _splitc_pc_dirs()
  set(header_items "")
  if(TARGET splitc_headers)
    _splitc_link_items(splitc_headers header_items)
  elseif(TARGET splitc::headers)  # outside the tree: the installed package's
    _splitc_link_items(splitc::headers header_items)
  endif()
  _splitc_link_items(splitc-${name} items)
  _splitc_map_deps(pc fmt::fmt Threads::Threads ${header_items} ${items})
  set(SPLITC_PC_BACKEND "${name}")
  string(TOUPPER "${name}" SPLITC_PC_BACKEND_UPPER)
  get_target_property(out splitc-${name} OUTPUT_NAME)
  if(NOT out)
    set(out splitc-${name})
  endif()
  set(SPLITC_PC_LIBNAME "${out}")
  list(JOIN pc_REQUIRES ", " SPLITC_PC_REQUIRES)
  list(JOIN pc_LIBS " " SPLITC_PC_LIBS)
  if(SPLITC_INSTALLED_PACKAGE)
    set(SPLITC_PC_VERSION "${splitc_VERSION}")
    set(SPLITC_PC_CXX_RUNTIME "${splitc_PC_CXX_RUNTIME}")
  else()
    set(SPLITC_PC_VERSION "${PROJECT_VERSION}")
    _splitc_cxx_runtime(SPLITC_PC_CXX_RUNTIME)
  endif()
  # What a backend adds beyond its own define: other public definitions and
  # system include directories (MPI's, for the mpi backends); outside this
  # tree, also the installed splitc's headers.
  set(SPLITC_PC_CFLAGS "")
  get_target_property(defs splitc-${name} INTERFACE_COMPILE_DEFINITIONS)
  foreach(d IN LISTS defs)
    if(d AND NOT d MATCHES "^SPLITC_BACKEND_${SPLITC_PC_BACKEND_UPPER}=" AND NOT d MATCHES "[$<]")
      string(APPEND SPLITC_PC_CFLAGS " -D${d}")
    endif()
  endforeach()
  get_target_property(incs splitc-${name} INTERFACE_INCLUDE_DIRECTORIES)
  if(SPLITC_INSTALLED_PACKAGE)
    # By its real path: the core is inlined into this backend's library, so its programs must
    # compile against the very headers it was built with, not whatever a link (a "current"
    # prefix, a temporary name) points at later.
    file(REAL_PATH "${splitc_INCLUDE_DIR}" splitc_real_include_dir)
    list(APPEND incs "${splitc_real_include_dir}")
  endif()
  get_target_property(source_dir splitc-${name} SOURCE_DIR)
  set(tree "${PROJECT_SOURCE_DIR}")  # this tree's own directories are installed under includedir
  if(SPLITC_INSTALLED_PACKAGE)
    set(tree "${source_dir}")
  endif()
  foreach(i IN LISTS incs)
    string(FIND "${i}" "${tree}" in_tree)
    if(i AND IS_ABSOLUTE "${i}" AND NOT in_tree EQUAL 0 AND NOT i MATCHES "[$<]")
      string(APPEND SPLITC_PC_CFLAGS " -I${i}")
    endif()
  endforeach()
  set(pc_in "${CMAKE_BINARY_DIR}/pkgconfig/splitc-${name}.pc.in")
  configure_file("${_SPLITC_PKG_CONFIG_MODULE_DIR}/splitc-backend.pc.in" "${pc_in}" @ONLY)
  splitc_install_pc("${pc_in}")
endfunction()
