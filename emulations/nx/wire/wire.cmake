# The message-passing wire (wire.h) as object libraries, for the NX and MPL
# emulations (both include this file; the first defines them):
#   msgpass-wire-openmpi   wire_mpi.c on Open MPI
#   msgpass-wire-mpich     wire_mpi.c on MPICH
#   msgpass-wire-sim       wire_sim.c on the sim backend's engine (when it exists)
# for the MPIs that cmake/SplitcMPI.cmake found (SPLITC_MPI_FLAVOURS). Included by every
# directory that needs msgpass_emulation*; the targets are made once.
set(MSGPASS_WIRE_DIR ${CMAKE_CURRENT_LIST_DIR})

foreach(_flavour IN LISTS SPLITC_MPI_FLAVOURS)
  if(NOT TARGET msgpass-wire-${_flavour})
    add_library(msgpass-wire-${_flavour} OBJECT ${MSGPASS_WIRE_DIR}/wire_mpi.c
                ${MSGPASS_WIRE_DIR}/global.c)
    target_include_directories(msgpass-wire-${_flavour} SYSTEM PRIVATE
                               ${SPLITC_MPI_INCLUDES_${_flavour}})
    target_include_directories(msgpass-wire-${_flavour} PRIVATE
                               ${PROJECT_SOURCE_DIR}/emulations/wait/include)
    target_compile_options(msgpass-wire-${_flavour} PRIVATE -Wall -Wextra)
    set_target_properties(msgpass-wire-${_flavour} PROPERTIES C_STANDARD 11
                          POSITION_INDEPENDENT_CODE ON)
  endif()
endforeach()

if(TARGET splitc-sim-engine AND NOT TARGET msgpass-wire-sim AND EXISTS ${MSGPASS_WIRE_DIR}/wire_sim.c)
  add_library(msgpass-wire-sim OBJECT ${MSGPASS_WIRE_DIR}/wire_sim.c ${MSGPASS_WIRE_DIR}/global.c)
  target_link_libraries(msgpass-wire-sim PRIVATE splitc-sim-engine)
  target_compile_options(msgpass-wire-sim PRIVATE -Wall -Wextra)
  set_target_properties(msgpass-wire-sim PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
endif()

# msgpass_emulation(NAME SOURCES...): the emulation NAME as object libraries
# NAME-emu-<flavour> for every MPI and the sim (NAME-emu-sim), with
# include/ of the calling directory as its public header directory.
function(msgpass_emulation name)
  set(variants ${SPLITC_MPI_FLAVOURS})
  if(TARGET msgpass-wire-sim)
    list(APPEND variants sim)
  endif()
  foreach(v IN LISTS variants)
    add_library(${name}-emu-${v} OBJECT ${ARGN})
    target_include_directories(${name}-emu-${v} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
    target_compile_options(${name}-emu-${v} PRIVATE -Wall -Wextra)
    set_target_properties(${name}-emu-${v} PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
  endforeach()
endfunction()

# msgpass_emulation_objects(NAME VARIANT OUT): the object files of emulation
# NAME on VARIANT (openmpi, mpich, sim), with its wire's.
function(msgpass_emulation_objects name variant out)
  set(${out} $<TARGET_OBJECTS:${name}-emu-${variant}> $<TARGET_OBJECTS:msgpass-wire-${variant}>
      PARENT_SCOPE)
endfunction()

# msgpass_emulation_test(NAME VARIANT SOURCE TARGET): the test program TARGET of emulation
# NAME on VARIANT (openmpi: linked with that MPI; sim: with splitc-sim, which holds the
# engine), from SOURCE with the emulation's objects and headers.
function(msgpass_emulation_test name variant source target)
  msgpass_emulation_objects(${name} ${variant} objects)
  add_executable(${target} ${source} ${objects})
  if(variant STREQUAL "sim")
    target_link_libraries(${target} PRIVATE splitc-sim)
  else()
    target_link_libraries(${target} PRIVATE ${SPLITC_MPI_LINK_${variant}})
  endif()
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include)
  set_target_properties(${target} PROPERTIES C_STANDARD 11)
endfunction()
