# nxam_port(NAME EMULATION LAYER_DIR): the NXAM port NAME (NAME on Open MPI,
# NAME_mpich on MPICH; NAME_sim on the sim engine, whose machine model the
# layer file names) of src/nxam_backend.cpp with the layer calls of
# LAYER_DIR/nxam_layer.hpp, the emulation's and its wire's objects compiled
# in (on the sim, with the engine, in the same library). Used by backends/nx
# and backends/mpl.
include(${PROJECT_SOURCE_DIR}/emulations/nx/wire/wire.cmake)
set(NXAM_PORT_SOURCE ${CMAKE_CURRENT_LIST_DIR}/src/nxam_backend.cpp)
set(NXAM_PORT_INCLUDE ${CMAKE_CURRENT_LIST_DIR}/include)
set(NXAM_PORT_BENCH ${CMAKE_CURRENT_LIST_DIR}/bench/nxam_bench.cpp)

# splitc-BACKEND-bench (bench/nxam_bench.cpp): the port's AM round trip next to
# raw MPI's and the layer's own ping-pong, in the same processes; with the
# tests, its smoke run (label "BACKEND;bench").
function(_nxam_bench backend emulation flavour)
  if(NOT SPLITC_BUILD_BENCH)
    return()
  endif()
  add_executable(splitc-${backend}-bench ${NXAM_PORT_BENCH})
  target_compile_options(splitc-${backend}-bench PRIVATE -Wall -Wextra)
  target_include_directories(splitc-${backend}-bench SYSTEM PRIVATE ${MSGPASS_MPI_INCLUDES_${flavour}})
  target_include_directories(splitc-${backend}-bench PRIVATE
    $<TARGET_PROPERTY:${emulation}-emu-${flavour},INTERFACE_INCLUDE_DIRECTORIES>)
  target_compile_definitions(splitc-${backend}-bench PRIVATE OMPI_SKIP_MPICXX=1 MPICH_SKIP_MPICXX=1)
  target_link_libraries(splitc-${backend}-bench PRIVATE splitc-${backend} ${MSGPASS_MPI_LINK_${flavour}})
  if(SPLITC_BUILD_TESTS)
    # It exits 0 and prints the AM round trip's row against MPI (timings are never judged).
    add_test(NAME ${backend}.bench_smoke
      COMMAND bash ${PROJECT_SOURCE_DIR}/tests/programs/expect_output.sh
              "^splitc AM \\(4 words\\) +[0-9.]+ +[0-9.]+ \\[[0-9.]+-[0-9.]+\\] \\(÷ MPI\\)"
              $<TARGET_FILE:splitc-run> --backend ${backend} -n 2
              $<TARGET_FILE:splitc-${backend}-bench> --runs 1 --iters 200)
    set_tests_properties(${backend}.bench_smoke PROPERTIES LABELS "${backend};bench" TIMEOUT 120)
  endif()
endfunction()

function(nxam_port name emulation layer_dir)
  set(flavours ${MSGPASS_MPI_FLAVOURS})
  foreach(flavour IN LISTS flavours)
    set(backend ${name})
    set(procs "")
    if(flavour STREQUAL "mpich")
      if(NOT SPLITC_FULL_MATRIX)  # the ports' second MPI: the long matrix
        continue()
      endif()
      set(backend ${name}_mpich)
      set(procs TEST_PROCS 4)
    elseif(NOT flavour STREQUAL "openmpi")
      continue()
    else()
      set(procs TEST_PROCS 4)
    endif()
    msgpass_emulation_objects(${emulation} ${flavour} objects)
    splitc_add_backend(NAME ${backend}
      HEADER splitc/backends/nxam.hpp
      CLASS splitc::backends::nxam::nxam_backend
      SOURCES ${NXAM_PORT_SOURCE} ${PROJECT_SOURCE_DIR}/backends/mpi/src/mpi_launch.cpp ${objects}
      INCLUDE_DIRECTORIES ${MSGPASS_MPI_INCLUDES_${flavour}}
      LIBRARIES ${MSGPASS_MPI_LINK_${flavour}}
      ${procs}
      SEED_PORT)
    target_include_directories(splitc-${backend} PUBLIC $<BUILD_INTERFACE:${NXAM_PORT_INCLUDE}>)
    target_include_directories(splitc-${backend} PRIVATE ${layer_dir}
      $<TARGET_PROPERTY:${emulation}-emu-${flavour},INTERFACE_INCLUDE_DIRECTORIES>
      ${PROJECT_SOURCE_DIR}/backends/mpi/include)
    # mpi_launch.cpp (the mpi backends' launcher: mpirun of the same MPI).
    target_compile_definitions(splitc-${backend} PRIVATE SPLITC_MPI_MPIRUN="${MSGPASS_MPIRUN_${flavour}}"
      OMPI_SKIP_MPICXX=1 MPICH_SKIP_MPICXX=1)
    _nxam_bench(${backend} ${emulation} ${flavour})
  endforeach()
  if(TARGET ${emulation}-emu-sim)
    # On the engine: one process, every node a fiber (splitc-run --backend NAME_sim).
    msgpass_emulation_objects(${emulation} sim objects)
    splitc_add_engine_backend(NAME ${name}_sim
      HEADER splitc/backends/nxam.hpp
      CLASS splitc::backends::nxam::nxam_backend
      SOURCES ${NXAM_PORT_SOURCE} ${objects}
      TEST_PROCS 3
      SEED_PORT)
    target_include_directories(splitc-${name}_sim PUBLIC $<BUILD_INTERFACE:${NXAM_PORT_INCLUDE}>)
    target_include_directories(splitc-${name}_sim PRIVATE ${layer_dir}
      $<TARGET_PROPERTY:${emulation}-emu-sim,INTERFACE_INCLUDE_DIRECTORIES>)
  endif()
endfunction()

