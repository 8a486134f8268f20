# The message-passing wire (wire.h) as object libraries, for the NX and MPL
# emulations (both include this file; the first defines them):
#   msgpass-wire-openmpi   wire_mpi.c on Open MPI
#   msgpass-wire-mpich     wire_mpi.c on MPICH
#   msgpass-wire-sim       wire_sim.c on the sim backend's engine (when it exists)
# and, per MPI flavour f in MSGPASS_MPI_FLAVOURS: MSGPASS_MPI_INCLUDES_<f>,
# MSGPASS_MPI_LINK_<f> (from the MPI's wrapper compiler) and MSGPASS_MPIRUN_<f>.
# The same options as the mpi backends choose the MPIs (SPLITC_MPI_OPENMPI,
# SPLITC_MPI_MPICH). Included by every directory that needs the variables; the
# targets are made once.
set(MSGPASS_WIRE_DIR ${CMAKE_CURRENT_LIST_DIR})

# _msgpass_mpi(FLAVOUR WRAPPER SHOW_ARG MPIRUN)
function(_msgpass_mpi flavour wrapper show_arg mpirun)
  execute_process(COMMAND ${wrapper} ${show_arg} OUTPUT_VARIABLE shown RESULT_VARIABLE rc
                  ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    return()
  endif()
  separate_arguments(words UNIX_COMMAND "${shown}")
  set(inc "")
  set(link "")
  foreach(w IN LISTS words)
    if(w MATCHES "^-I(.+)$")
      list(APPEND inc "${CMAKE_MATCH_1}")
    elseif(w MATCHES "^-[Ll].+$")
      list(APPEND link "${w}")
    endif()
  endforeach()
  set(MSGPASS_MPI_INCLUDES_${flavour} "${inc}" PARENT_SCOPE)
  set(MSGPASS_MPI_LINK_${flavour} "${link}" PARENT_SCOPE)
  set(MSGPASS_MPIRUN_${flavour} "${mpirun}" PARENT_SCOPE)
  set(MSGPASS_MPI_FLAVOURS ${MSGPASS_MPI_FLAVOURS} ${flavour} PARENT_SCOPE)
  if(TARGET msgpass-wire-${flavour})
    return()
  endif()
  add_library(msgpass-wire-${flavour} OBJECT ${MSGPASS_WIRE_DIR}/wire_mpi.c
              ${MSGPASS_WIRE_DIR}/global.c)
  target_include_directories(msgpass-wire-${flavour} SYSTEM PRIVATE ${inc})
  target_compile_options(msgpass-wire-${flavour} PRIVATE -Wall -Wextra)
  set_target_properties(msgpass-wire-${flavour} PROPERTIES C_STANDARD 11
                        POSITION_INDEPENDENT_CODE ON)
endfunction()

set(MSGPASS_MPI_FLAVOURS "")
if(SPLITC_MPI_OPENMPI OR NOT DEFINED SPLITC_MPI_OPENMPI)
  find_program(SPLITC_OPENMPI_MPICC NAMES mpicc.openmpi)
  find_program(SPLITC_OPENMPI_MPIRUN NAMES mpirun.openmpi)
  if(SPLITC_OPENMPI_MPICC AND SPLITC_OPENMPI_MPIRUN)
    _msgpass_mpi(openmpi ${SPLITC_OPENMPI_MPICC} --showme ${SPLITC_OPENMPI_MPIRUN})
  endif()
endif()
if(SPLITC_MPI_MPICH OR NOT DEFINED SPLITC_MPI_MPICH)
  find_program(SPLITC_MPICH_MPICC NAMES mpicc.mpich)
  find_program(SPLITC_MPICH_MPIRUN NAMES mpirun.mpich mpiexec.mpich mpiexec.hydra)
  if(SPLITC_MPICH_MPICC AND SPLITC_MPICH_MPIRUN)
    _msgpass_mpi(mpich ${SPLITC_MPICH_MPICC} -show ${SPLITC_MPICH_MPIRUN})
  endif()
endif()

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
  set(variants ${MSGPASS_MPI_FLAVOURS})
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
    target_link_libraries(${target} PRIVATE ${MSGPASS_MPI_LINK_${variant}})
  endif()
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include)
  set_target_properties(${target} PROPERTIES C_STANDARD 11)
endfunction()
