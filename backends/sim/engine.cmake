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
