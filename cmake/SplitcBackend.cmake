# splitc_add_backend: the one CMake call that makes a backend, in this tree
# (ports/<port>/CMakeLists.txt, found by the top-level CMakeLists.txt) and
# outside it (after find_package(splitc), which brings this file and the
# core's installed sources):
#
#   splitc_add_backend(NAME <name>
#                      HEADER <splitc/backends/x.hpp>   # declares CLASS
#                      CLASS <ns::x_backend>            # satisfies splitc::backend
#                      SOURCES <file>...                # the backend's own sources
#                      [SUBSTRATE <s>]                  # what the layer runs on (below)
#                      [LAYER <text>]                   # the message layer the port is written to
#                      [SEED_MACHINE <text>]            # the seed's machine it ports (docs/ports.md)
#                      [LAUNCH <text>]                  # how a job is started
#                      [MPL_NAMES <NAME=text>...]       # historical layer names (Make.split-c)
#                      [LIBRARIES <item>...]            # linked PUBLIC (vendor libraries)
#                      [INCLUDE_DIRECTORIES <dir>...]   # SYSTEM PUBLIC (vendor headers)
#                      [DEFINITIONS <d>...]             # PUBLIC compile definitions
#                      [TEST_PROCS <p>...]              # process counts of the generic tests
#                      [SINGLE_PROCESS]                 # runs jobs of one process only
#                      [SEED_PORT]                      # a seed machine's port (docs/ports.md)
#                      [TEST_VEHICLE])                  # boundary test vehicle (ports/smp: narrow)
#
# SUBSTRATE says what is below the layer, and brings it:
#   processes (the default)  processes of this host, started by the port's own launch_job
#   openmpi, mpich           that MPI (cmake/SplitcMPI.cmake: its wrapper's -I and -L/-l,
#                            OMPI_SKIP_MPICXX and MPICH_SKIP_MPICXX, and the private
#                            definition SPLITC_SUBSTRATE_LAUNCHER="<its mpirun>"), and
#                            launch_job running that mpirun (src/port/mpi_substrate_launch.cpp)
#   oshmem                   OpenSHMEM (oshcc's flags; SPLITC_SUBSTRATE_LAUNCHER="<oshrun>")
#   sim                      the sim engine (sim_engine/): its objects and launch_job in the
#                            library, SPLITC_SIM_SUBSTRATE=1; the processors share one process
# A substrate this machine lacks is an error: ask splitc_substrate_found first.
# SEED_MACHINE, LAYER, SUBSTRATE, LAUNCH and MPL_NAMES are the backend's declaration, from
# which the backend tables of the documentation are written and checked
# (splitc_write_backend_declarations, scripts/doc_tables.sh).
#
# It makes the static library splitc-<name> (alias splitc::<name>; the
# launcher, bench and tests link splitc-<name> itself): the core
# (SPLITC_CORE_SOURCES) compiled against CLASS, plus SOURCES. The selection is
# a header generated for this backend, <splitc/backend_selection.hpp> in a
# directory of its own on the library's PUBLIC include path, which
# <splitc/backend.hpp> includes: it includes HEADER and names CLASS
# splitc::active_backend. Everything that links splitc::<name> also gets
# SPLITC_BACKEND_<NAME>=1 (for programs that care which backend they have)
# and <dir of this CMakeLists.txt>/include.
#
# The rest comes from the registration (global property SPLITC_BACKENDS):
#   in this tree   tools/ builds splitc-run-<name>, bench/ splitc-bench-<name>,
#                  tests/ the generic suites (cmake/SplitcTests.cmake), and
#                  cmake/SplitcInstall.cmake installs it with a splitc-<name>.pc;
#   outside it     the same functions run at the end of the calling directory
#                  (_splitc_backend_outside below), and `cmake --install`
#                  installs the library, its headers, splitc-<name>.pc,
#                  splitc-run-<name> and splitc-bench-<name>.
#
# SINGLE_PROCESS (the template, until it carries messages): the generic suites
# (tests/*/generic.cmake) are replaced by tests/*/single_process.cmake (a job
# of one passes, a job of two fails with "no path to peer"), and the bench has
# no smoke run.
#
# TEST_VEHICLE (ports/smp's narrow boundaries: smp's transport behind a different
# boundary): only the suites that exercise the boundary run on it -- the
# generic programs, collectives, spread arrays, the C interface's program and
# the conformance suite; its launcher, error paths and supervision are the
# other backend's, so their tests, the bench, DOLIB and the install skip it.
include_guard(GLOBAL)
include(GNUInstallDirs)

set(_SPLITC_BACKEND_MODULE_DIR "${CMAKE_CURRENT_LIST_DIR}")

function(splitc_add_backend)
  cmake_parse_arguments(B "SINGLE_PROCESS;TEST_VEHICLE;SEED_PORT"
    "NAME;HEADER;CLASS;SUBSTRATE;LAYER;SEED_MACHINE;LAUNCH"
    "SOURCES;LIBRARIES;INCLUDE_DIRECTORIES;DEFINITIONS;TEST_PROCS;MPL_NAMES" ${ARGN})
  foreach(required NAME HEADER CLASS SOURCES)
    if(NOT B_${required})
      message(FATAL_ERROR "splitc_add_backend: ${required} is missing "
        "(splitc_add_backend(NAME n HEADER splitc/backends/n.hpp CLASS ns::cls SOURCES ...))")
    endif()
  endforeach()
  if(B_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "splitc_add_backend(${B_NAME}): unknown arguments ${B_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT B_NAME MATCHES "^[a-z][a-z0-9_]*$")
    message(FATAL_ERROR "splitc_add_backend: NAME '${B_NAME}' must be lower case letters, "
      "digits and '_' (it names the library, the launcher and the tests)")
  endif()
  get_property(known GLOBAL PROPERTY SPLITC_BACKENDS)
  if(B_NAME IN_LIST known)
    message(FATAL_ERROR "splitc_add_backend: a backend named '${B_NAME}' exists already")
  endif()
  if(NOT SPLITC_CORE_SOURCES)
    message(FATAL_ERROR "splitc_add_backend(${B_NAME}): SPLITC_CORE_SOURCES is empty "
      "(call it after find_package(splitc), or from this tree's ports/)")
  endif()
  if(NOT B_SUBSTRATE)
    set(B_SUBSTRATE processes)
  endif()
  _splitc_substrate_flags(${B_NAME} ${B_SUBSTRATE})
  set(name ${B_NAME})
  string(TOUPPER "${name}" upper)
  string(REGEX REPLACE "^<(.*)>$" "\\1" header "${B_HEADER}")

  # The selection header, in a directory that holds nothing else.
  set(selection_dir "${CMAKE_BINARY_DIR}/splitc-selection/${name}")
  set(SPLITC_SELECTION_NAME "${name}")
  set(SPLITC_SELECTION_HEADER "${header}")
  set(SPLITC_SELECTION_CLASS "${B_CLASS}")
  configure_file("${_SPLITC_BACKEND_MODULE_DIR}/splitc-backend-selection.hpp.in"
                 "${selection_dir}/splitc/backend_selection.hpp" @ONLY)

  _splitc_core_unity_sources(core_sources)
  add_library(splitc-${name} STATIC ${core_sources} ${B_SOURCES} ${substrate_sources})
  if(TARGET splitc::${name})
    # Outside the tree, an installed backend of the same name (a copy of the
    # template keeps its name): splitc::NAME stays the installed library;
    # everything made here links splitc-NAME, the one built here.
    message(STATUS "splitc: backend '${name}' built here; splitc::${name} still names the "
      "installed one, splitc-${name} this one")
  else()
    add_library(splitc::${name} ALIAS splitc-${name})
  endif()
  target_compile_definitions(splitc-${name} PUBLIC SPLITC_BACKEND_${upper}=1 ${B_DEFINITIONS}
                             ${substrate_definitions})
  if(substrate_launcher)
    target_compile_definitions(splitc-${name} PRIVATE
                               SPLITC_SUBSTRATE_LAUNCHER="${substrate_launcher}")
  endif()
  target_include_directories(splitc-${name} PUBLIC
    $<BUILD_INTERFACE:${selection_dir}>
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/splitc-${name}>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  if(B_INCLUDE_DIRECTORIES OR substrate_includes)
    target_include_directories(splitc-${name} SYSTEM PUBLIC ${B_INCLUDE_DIRECTORIES}
                               ${substrate_includes})
  endif()
  # sodium: the porting kit's watchdog authenticates its heartbeats (src/port/watchdog.cpp).
  target_link_libraries(splitc-${name} PUBLIC splitc::headers ${B_LIBRARIES} ${substrate_libraries}
                        sodium)
  target_compile_options(splitc-${name} PRIVATE -Wall -Wextra)
  if(NOT B_TEST_PROCS)
    set(B_TEST_PROCS 1 2 3 4)
  endif()
  set_target_properties(splitc-${name} PROPERTIES
    EXPORT_NAME ${name}
    OUTPUT_NAME splitc-${name}
    SPLITC_SELECTION_DIR "${selection_dir}"
    SPLITC_TEST_PROCS "${B_TEST_PROCS}"
    SPLITC_SINGLE_PROCESS ${B_SINGLE_PROCESS}
    SPLITC_TEST_VEHICLE ${B_TEST_VEHICLE}
    SPLITC_SHARED_PROCESS ${substrate_shared_process})
  _splitc_declare_backend(${name} "${B_SUBSTRATE}" "${B_LAYER}" "${B_SEED_MACHINE}"
                          "${B_LAUNCH}" "${B_MPL_NAMES}" ${B_TEST_VEHICLE} ${B_SINGLE_PROCESS})
  if(B_TEST_VEHICLE)
    set_property(GLOBAL APPEND PROPERTY SPLITC_TEST_VEHICLES ${name})
  endif()
  set_property(GLOBAL APPEND PROPERTY SPLITC_BACKENDS ${name})
  if(NOT B_SINGLE_PROCESS AND NOT B_TEST_VEHICLE)
    set_property(GLOBAL APPEND PROPERTY SPLITC_MULTIPROCESS_BACKENDS ${name})
    if(B_SEED_PORT)
      set_property(GLOBAL APPEND PROPERTY SPLITC_SEED_PORTS ${name})
    endif()
  endif()

  if(SPLITC_INSTALLED_PACKAGE)
    # After the rest of the calling CMakeLists.txt, which may still link or
    # define things on splitc-<name>.
    # (A deferred call's arguments are read when it runs: pass the name now.)
    cmake_language(EVAL CODE "cmake_language(DEFER CALL _splitc_backend_outside [[${name}]])")
    if(SPLITC_BUILD_TESTS)
      # At directory scope: enable_testing() inside a function has no effect.
      cmake_language(DEFER CALL enable_testing)
    endif()
  endif()
endfunction()

# splitc_substrate_found(SUBSTRATE OUT): whether SUBSTRATE (processes, openmpi, mpich,
# oshmem, sim) is there to build on.
function(splitc_substrate_found substrate out)
  set(found FALSE)
  if(substrate STREQUAL "processes")
    set(found TRUE)
  elseif(substrate STREQUAL "sim")
    if(TARGET splitc-sim-engine-objects)
      set(found TRUE)
    endif()
  elseif(substrate STREQUAL "oshmem")
    if(SPLITC_OSHMEM_FOUND)
      set(found TRUE)
    endif()
  elseif(substrate IN_LIST SPLITC_MPI_FLAVOURS)
    set(found TRUE)
  endif()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

# splitc_unity_sources(OUT NAME SOURCES...): SOURCES (their .cpp files; the rest are headers
# they share) as one source, splitc-unity/NAME.cpp in the build directory, which includes
# them: what is compiled once per backend (the core, the layers) parses the headers they
# share once instead of once per file. It names the sources by paths relative to it, so that
# ccache finds the same text in another checkout, and is written only when it changes. With
# SPLITC_UNITY=OFF, OUT is SOURCES (each compiled alone: for a profile per file). A source
# compiled this way keeps its file-local names in a namespace of its own or an unnamed one
# inside it (two files' unnamed namespaces are one here).
option(SPLITC_UNITY "compile the core and the layers as a few unity sources per backend" ON)
function(splitc_unity_sources out name)
  if(NOT SPLITC_UNITY)
    set(${out} ${ARGN} PARENT_SCOPE)
    return()
  endif()
  set(dir "${CMAKE_BINARY_DIR}/splitc-unity")
  set(text "// ${name}'s sources as one (splitc_unity_sources, cmake/SplitcBackend.cmake).\n")
  foreach(src IN LISTS ARGN)
    if(src MATCHES "\\.cpp$")
      file(RELATIVE_PATH rel "${dir}" "${src}")
      string(APPEND text "#include \"${rel}\"\n")
    endif()
  endforeach()
  file(CONFIGURE OUTPUT "${dir}/${name}.cpp" @ONLY CONTENT "${text}")
  set(${out} "${dir}/${name}.cpp" PARENT_SCOPE)
endfunction()

# _splitc_core_unity_sources(OUT): the core's sources (SPLITC_CORE_SOURCES) as three unity
# sources -- the runtime (src/*.cpp), the C interface (src/c_*.cpp) and the porting kit
# (src/port/*.cpp). Every backend compiles the whole core again (the core calls its backend's
# inline operations), and the runtime's and the C interface's 26 files took 38 s of compiling
# one by one, 20 s as two (docs/running.md, "Where a build from nothing goes").
function(_splitc_core_unity_sources out)
  set(runtime "")
  set(c_interface "")
  set(kit "")
  foreach(src IN LISTS SPLITC_CORE_SOURCES)
    get_filename_component(parent "${src}" DIRECTORY)
    get_filename_component(parent "${parent}" NAME)
    get_filename_component(file_name "${src}" NAME)
    if(parent STREQUAL "port")
      list(APPEND kit "${src}")
    elseif(file_name MATCHES "^c_")
      list(APPEND c_interface "${src}")
    else()
      list(APPEND runtime "${src}")
    endif()
  endforeach()
  set(sources "")
  foreach(group runtime c_interface kit)
    splitc_unity_sources(group_sources core_${group} ${${group}})
    list(APPEND sources ${group_sources})
  endforeach()
  set(${out} ${sources} PARENT_SCOPE)
endfunction()

# _splitc_substrate_flags(NAME SUBSTRATE): in the caller, substrate_sources,
# substrate_includes, substrate_libraries, substrate_definitions, substrate_launcher and
# substrate_shared_process for SUBSTRATE.
macro(_splitc_substrate_flags _name _substrate)
  set(substrate_sources "")
  set(substrate_includes "")
  set(substrate_libraries "")
  set(substrate_definitions "")
  set(substrate_launcher "")
  set(substrate_shared_process OFF)
  splitc_substrate_found(${_substrate} _found)
  if(NOT _found)
    message(FATAL_ERROR "splitc_add_backend(${_name}): the substrate '${_substrate}' is not "
      "available here (processes, sim, oshmem or one of the MPIs found: "
      "'${SPLITC_MPI_FLAVOURS}'); test it first with splitc_substrate_found")
  endif()
  if(${_substrate} STREQUAL "sim")
    set(substrate_sources $<TARGET_OBJECTS:splitc-sim-engine-objects> ${SPLITC_SIM_LAUNCH_SOURCE})
    set(substrate_libraries splitc-sim-engine Boost::context)
    set(substrate_definitions SPLITC_SIM_SUBSTRATE=1)
    set(substrate_shared_process ON)
  elseif(${_substrate} STREQUAL "oshmem")
    set(substrate_includes ${SPLITC_OSHMEM_INCLUDES})
    set(substrate_libraries ${SPLITC_OSHMEM_LINK})
    set(substrate_definitions OMPI_SKIP_MPICXX=1)
    set(substrate_launcher ${SPLITC_OSHRUN})
  elseif(NOT ${_substrate} STREQUAL "processes")
    set(substrate_sources ${SPLITC_MPI_LAUNCH_SOURCE})
    set(substrate_includes ${SPLITC_MPI_INCLUDES_${_substrate}})
    set(substrate_libraries ${SPLITC_MPI_LINK_${_substrate}})
    # A program that includes <mpi.h> itself gets MPI's C interface only (the C++ bindings
    # would need libmpi_cxx).
    set(substrate_definitions OMPI_SKIP_MPICXX=1 MPICH_SKIP_MPICXX=1)
    set(substrate_launcher ${SPLITC_MPIRUN_${_substrate}})
  endif()
endmacro()

# _splitc_declare_backend(NAME SUBSTRATE LAYER SEED_MACHINE LAUNCH MPL_NAMES VEHICLE SINGLE):
# the backend's declaration, one record of the global property SPLITC_BACKEND_DECLARATIONS.
function(_splitc_declare_backend name substrate layer seed launch mpl_names vehicle single)
  get_filename_component(port "${CMAKE_CURRENT_SOURCE_DIR}" NAME)
  set(role backend)
  if(vehicle)
    set(role vehicle)
  elseif(single)
    set(role template)
  endif()
  if(SPLITC_FULL_MATRIX_ONLY)
    set(role long_matrix)
  endif()
  string(REPLACE ";" "," mpl "${mpl_names}")
  foreach(field IN ITEMS layer seed launch mpl)
    string(REPLACE "\t" " " ${field} "${${field}}")
  endforeach()
  set_property(GLOBAL APPEND_STRING PROPERTY SPLITC_BACKEND_DECLARATIONS
    "${name}\t${port}\t${role}\t${substrate}\t${layer}\t${seed}\t${launch}\t${mpl}\n")
endfunction()

# splitc_write_backend_declarations(FILE [MISSING <what>...]): every backend declared here,
# one line each, fields separated by tabs: name, port (its directory), role (backend,
# vehicle, template, long_matrix), substrate, layer, seed machine, launch, historical names
# (NAME=text, separated by commas); first a line "# complete: yes", or "# complete: no
# (<what is missing>)" when MISSING names what this build lacks (a substrate, a port left
# out), so that a check of the docs' tables knows it cannot judge.
function(splitc_write_backend_declarations file)
  cmake_parse_arguments(W "" "" "MISSING" ${ARGN})
  if(W_MISSING)
    list(JOIN W_MISSING ", " missing)
    set(head "# complete: no (missing: ${missing})\n")
  else()
    set(head "# complete: yes\n")
  endif()
  get_property(records GLOBAL PROPERTY SPLITC_BACKEND_DECLARATIONS)
  file(WRITE "${file}" "${head}${records}")
endfunction()

# splitc_backend_is_single_process(NAME OUT): whether NAME was declared SINGLE_PROCESS.
function(splitc_backend_is_single_process name out)
  get_target_property(single splitc-${name} SPLITC_SINGLE_PROCESS)
  if(single)
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

# splitc_add_launcher(NAME): splitc-run-NAME, the launcher of NAME's jobs (what
# `splitc-run --backend NAME` runs: it looks beside itself, then on PATH).
# Its command line (SPLITC_LAUNCHER_CLI_SOURCE, the CLI11 part, 8 s of compiling) is one
# library for every launcher, splitc-launcher-cli; its main (SPLITC_LAUNCHER_SOURCE) names
# the backend.
function(splitc_add_launcher name)
  find_package(CLI11 CONFIG REQUIRED)
  splitc_add_launcher_cli()
  add_executable(splitc-run-${name} "${SPLITC_LAUNCHER_SOURCE}")
  target_link_libraries(splitc-run-${name} PRIVATE splitc-launcher-cli splitc-${name})
  target_compile_definitions(splitc-run-${name} PRIVATE SPLITC_DEFAULT_LAUNCHER=0)
endfunction()

# splitc_add_launcher_cli(): the library splitc-launcher-cli (once).
function(splitc_add_launcher_cli)
  if(TARGET splitc-launcher-cli)
    return()
  endif()
  find_package(CLI11 CONFIG REQUIRED)
  add_library(splitc-launcher-cli STATIC "${SPLITC_LAUNCHER_CLI_SOURCE}")
  get_filename_component(dir "${SPLITC_LAUNCHER_CLI_SOURCE}" DIRECTORY)
  target_include_directories(splitc-launcher-cli PUBLIC "${dir}")
  target_link_libraries(splitc-launcher-cli PRIVATE splitc::headers CLI11::CLI11)
endfunction()

# splitc_test_launcher(BACKEND OUT): the launcher of BACKEND's jobs, for tests and examples
# (in this tree splitc-run itself for the default backend, else splitc-run-BACKEND).
function(splitc_test_launcher backend out)
  if(NOT SPLITC_INSTALLED_PACKAGE AND backend STREQUAL SPLITC_DEFAULT_BACKEND)
    set(${out} $<TARGET_FILE:splitc-run> PARENT_SCOPE)
  else()
    set(${out} $<TARGET_FILE:splitc-run-${backend}> PARENT_SCOPE)
  endif()
endfunction()

# Outside this tree, at the end of the directory that called splitc_add_backend:
# the launcher, the porting suite, the tests and the installation, made by the
# same functions this tree uses.
function(_splitc_backend_outside name)
  splitc_add_launcher(${name})
  if(SPLITC_BUILD_BENCH)
    splitc_add_bench(${name})
  endif()
  if(SPLITC_BUILD_TESTS)
    splitc_add_backend_tests(${name})
  endif()

  install(TARGETS splitc-${name} splitc-run-${name}
    ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
    RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
  if(TARGET splitc-bench-${name})
    install(TARGETS splitc-bench-${name} RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
  endif()
  splitc_install_backend_headers(${name})
  splitc_backend_pkg_config(${name})
endfunction()

# splitc_install_backend_headers(NAME): the backend's include/ and its
# selection header (include/splitc-NAME/splitc/backend_selection.hpp).
function(splitc_install_backend_headers name)
  get_target_property(source_dir splitc-${name} SOURCE_DIR)
  get_target_property(selection_dir splitc-${name} SPLITC_SELECTION_DIR)
  if(IS_DIRECTORY "${source_dir}/include")
    install(DIRECTORY "${source_dir}/include/"
      DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
      COMPONENT splitc_development
      PATTERN "CMakeLists.txt" EXCLUDE PATTERN "*~" EXCLUDE PATTERN ".*" EXCLUDE)
  endif()
  install(DIRECTORY "${selection_dir}/"
    DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/splitc-${name}"
    COMPONENT splitc_development)
endfunction()

include("${_SPLITC_BACKEND_MODULE_DIR}/SplitcPkgConfig.cmake")
include("${_SPLITC_BACKEND_MODULE_DIR}/SplitcBench.cmake")
include("${_SPLITC_BACKEND_MODULE_DIR}/SplitcTests.cmake")

# splitc_backends_with_own_processes(OUT): the multi-process backends whose processors each
# have a process of their own (not those that set the target property SPLITC_SHARED_PROCESS,
# as sim does): where programs that keep per-processor state in C globals (DOLIB, Split-C
# programs compiled by splitcc) run.
function(splitc_backends_with_own_processes out)
  get_property(all GLOBAL PROPERTY SPLITC_MULTIPROCESS_BACKENDS)
  set(result "")
  foreach(b IN LISTS all)
    get_target_property(shared splitc-${b} SPLITC_SHARED_PROCESS)
    if(NOT shared)
      list(APPEND result ${b})
    endif()
  endforeach()
  set(${out} ${result} PARENT_SCOPE)
endfunction()

# splitc_layer_backends(OUT): the backends the layers above the core (DOLIB, splitcc's
# programs) are built and tested on: those whose processors each have their own process
# (both keep state in C globals), the seed-machine ports (SEED_PORT) only with
# SPLITC_FULL_MATRIX (their generic and conformance suites run in every build).
function(splitc_layer_backends out)
  splitc_backends_with_own_processes(result)
  get_property(ports GLOBAL PROPERTY SPLITC_SEED_PORTS)
  if(ports AND NOT SPLITC_FULL_MATRIX)
    list(REMOVE_ITEM result ${ports})
  endif()
  set(${out} ${result} PARENT_SCOPE)
endfunction()
