# The sim engine (docs/sim.md): the world of fibers in virtual time that the sim backend runs
# on, and that emulated vendor layers run on too (include/splitc/sim_engine.h). Included by
# the top level before emulations/ and backends/, so that both can use:
#   SPLITC_SIM_ENGINE_SOURCES  compiled into each library that runs on the engine (the sim
#                              backend, a port's <name>_sim variant), with that library's core;
#   SPLITC_SIM_LAUNCH_SOURCE   launch_job for such a backend: one process, SPLITC_PROCS set;
#   splitc-sim-engine          the headers, Boost.Context and SPLITC_SIM_SUBSTRATE=1 (which
#                              makes <splitc/port/on_sim.hpp> available to a port).
include_guard(GLOBAL)
find_package(Boost 1.74 REQUIRED COMPONENTS context)
set(_sim_dir ${CMAKE_CURRENT_LIST_DIR})
set(SPLITC_SIM_ENGINE_SOURCES
  ${_sim_dir}/src/world.cpp ${_sim_dir}/src/segment_window.cpp ${_sim_dir}/src/fiber_stacks.cpp
  ${_sim_dir}/src/machine_model.cpp ${_sim_dir}/src/sim_engine.cpp)
set(SPLITC_SIM_LAUNCH_SOURCE ${_sim_dir}/src/sim_launch.cpp)
add_library(splitc-sim-engine INTERFACE)
add_library(splitc::sim_engine ALIAS splitc-sim-engine)
target_include_directories(splitc-sim-engine INTERFACE
  $<BUILD_INTERFACE:${_sim_dir}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_definitions(splitc-sim-engine INTERFACE SPLITC_SIM_SUBSTRATE=1)
target_link_libraries(splitc-sim-engine INTERFACE Boost::context)
set_target_properties(splitc-sim-engine PROPERTIES EXPORT_NAME sim_engine)
set_property(GLOBAL APPEND PROPERTY SPLITC_INSTALL_EXTRA_TARGETS splitc-sim-engine)

# splitc_add_engine_backend(NAME name SOURCES ... [LIBRARIES ...] [DEFINITIONS ...] <the rest as
# splitc_add_backend>): a backend whose layer runs on the engine (sim, a port's <name>_sim). It
# adds the engine's sources and launcher, and names splitc-sim-engine, Boost::context and
# SPLITC_SIM_SUBSTRATE=1 on the backend itself (cmake/SplitcPkgConfig.cmake writes a backend's
# own link items and definitions into its .pc, not those inside splitc-sim-engine); its
# processors share one process (SPLITC_SHARED_PROCESS: the suites about processes skip it).
function(splitc_add_engine_backend)
  # splitc_add_backend's keywords, so that each list ends where the next keyword starts.
  cmake_parse_arguments(E "SINGLE_PROCESS;TEST_VEHICLE;SEED_PORT" "NAME;HEADER;CLASS"
                        "SOURCES;LIBRARIES;INCLUDE_DIRECTORIES;DEFINITIONS;TEST_PROCS" ${ARGN})
  set(options "")
  foreach(option SINGLE_PROCESS TEST_VEHICLE SEED_PORT)
    if(E_${option})
      list(APPEND options ${option})
    endif()
  endforeach()
  splitc_add_backend(NAME ${E_NAME} HEADER ${E_HEADER} CLASS ${E_CLASS} ${options}
    SOURCES ${E_SOURCES} ${SPLITC_SIM_ENGINE_SOURCES} ${SPLITC_SIM_LAUNCH_SOURCE}
    LIBRARIES ${E_LIBRARIES} splitc-sim-engine Boost::context
    INCLUDE_DIRECTORIES ${E_INCLUDE_DIRECTORIES}
    DEFINITIONS ${E_DEFINITIONS} SPLITC_SIM_SUBSTRATE=1
    TEST_PROCS ${E_TEST_PROCS})
  set_target_properties(splitc-${E_NAME} PROPERTIES SPLITC_SHARED_PROCESS ON)
endfunction()
