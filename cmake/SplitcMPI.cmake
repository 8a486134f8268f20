# The MPI and OpenSHMEM implementations of this machine, probed once, through their wrapper
# compilers (the top level includes this before emulations/ and ports/, which only read it):
#   SPLITC_MPI_FLAVOURS            openmpi and/or mpich: those found and not switched off
#   SPLITC_MPI_INCLUDES_<flavour>  the wrapper's -I directories
#   SPLITC_MPI_LINK_<flavour>      its -L and -l items
#   SPLITC_MPIRUN_<flavour>        the launcher of the same MPI
#   SPLITC_OSHMEM_FOUND            OpenSHMEM's oshcc and oshrun (Open MPI's oshmem), with
#   SPLITC_OSHMEM_INCLUDES, SPLITC_OSHMEM_LINK and SPLITC_OSHRUN as above
# Each implementation's flags come from its own wrapper, so two mpi.h never meet. Switch one
# off with -DSPLITC_MPI_OPENMPI=OFF, -DSPLITC_MPI_MPICH=OFF or -DSPLITC_SHMEM=OFF; name other
# wrappers with SPLITC_OPENMPI_MPICC, SPLITC_MPICH_MPICC, SPLITC_OSHCC (and the launchers with
# SPLITC_OPENMPI_MPIRUN, SPLITC_MPICH_MPIRUN, SPLITC_OSHRUN).
include_guard(GLOBAL)
option(SPLITC_MPI_OPENMPI "Build the MPI backends and emulations against Open MPI when installed" ON)
option(SPLITC_MPI_MPICH "Build the MPI backends and emulations against MPICH when installed" ON)
option(SPLITC_SHMEM "Build splitc::shmem against OpenSHMEM when oshcc is installed" ON)

# _splitc_wrapper_flags(WRAPPER SHOW_ARG OUT_INCLUDES OUT_LINK): the -I directories and the
# -L/-l items a wrapper compiler adds (both empty when it cannot say).
function(_splitc_wrapper_flags wrapper show_arg out_inc out_link)
  execute_process(COMMAND ${wrapper} ${show_arg} OUTPUT_VARIABLE shown
                  RESULT_VARIABLE rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(inc "")
  set(link "")
  if(rc EQUAL 0)
    separate_arguments(words UNIX_COMMAND "${shown}")
    foreach(w IN LISTS words)
      if(w MATCHES "^-I(.+)$")
        list(APPEND inc "${CMAKE_MATCH_1}")
      elseif(w MATCHES "^-[Ll].+$")
        list(APPEND link "${w}")
      endif()
    endforeach()
  endif()
  set(${out_inc} "${inc}" PARENT_SCOPE)
  set(${out_link} "${link}" PARENT_SCOPE)
endfunction()

# _splitc_probe_mpi(FLAVOUR WRAPPER SHOW_ARG MPIRUN)
macro(_splitc_probe_mpi flavour wrapper show_arg mpirun)
  _splitc_wrapper_flags(${wrapper} ${show_arg} _inc _link)
  if(_inc AND _link)
    set(SPLITC_MPI_INCLUDES_${flavour} "${_inc}")
    set(SPLITC_MPI_LINK_${flavour} "${_link}")
    set(SPLITC_MPIRUN_${flavour} "${mpirun}")
    list(APPEND SPLITC_MPI_FLAVOURS ${flavour})
    message(STATUS "splitc: ${flavour}: ${wrapper}, launcher ${mpirun}")
  else()
    message(WARNING "splitc: cannot read the flags of ${wrapper}; ${flavour} not used")
  endif()
endmacro()

set(SPLITC_MPI_FLAVOURS "")
if(SPLITC_MPI_OPENMPI)
  find_program(SPLITC_OPENMPI_MPICC NAMES mpicc.openmpi)
  find_program(SPLITC_OPENMPI_MPIRUN NAMES mpirun.openmpi)
  if(SPLITC_OPENMPI_MPICC AND SPLITC_OPENMPI_MPIRUN)
    _splitc_probe_mpi(openmpi ${SPLITC_OPENMPI_MPICC} --showme ${SPLITC_OPENMPI_MPIRUN})
  else()
    message(STATUS "splitc: Open MPI not found (apt-get install openmpi-bin libopenmpi-dev)")
  endif()
endif()
if(SPLITC_MPI_MPICH)
  find_program(SPLITC_MPICH_MPICC NAMES mpicc.mpich)
  find_program(SPLITC_MPICH_MPIRUN NAMES mpirun.mpich mpiexec.mpich mpiexec.hydra)
  if(SPLITC_MPICH_MPICC AND SPLITC_MPICH_MPIRUN)
    _splitc_probe_mpi(mpich ${SPLITC_MPICH_MPICC} -show ${SPLITC_MPICH_MPIRUN})
  else()
    message(STATUS "splitc: MPICH not found (apt-get install mpich libmpich-dev)")
  endif()
endif()

set(SPLITC_OSHMEM_FOUND OFF)
if(SPLITC_SHMEM)
  find_program(SPLITC_OSHCC NAMES oshcc)
  find_program(SPLITC_OSHRUN NAMES oshrun)
  if(SPLITC_OSHCC AND SPLITC_OSHRUN)
    _splitc_wrapper_flags(${SPLITC_OSHCC} --showme SPLITC_OSHMEM_INCLUDES SPLITC_OSHMEM_LINK)
    if(SPLITC_OSHMEM_INCLUDES AND SPLITC_OSHMEM_LINK)
      set(SPLITC_OSHMEM_FOUND ON)
      message(STATUS "splitc: OpenSHMEM: ${SPLITC_OSHCC}, launcher ${SPLITC_OSHRUN}")
    else()
      message(WARNING "splitc: cannot read the flags of ${SPLITC_OSHCC}; OpenSHMEM not used")
    endif()
  else()
    message(STATUS "splitc: OpenSHMEM not found (apt-get install openmpi-bin libopenmpi-dev)")
  endif()
endif()
