// The MPI and OpenSHMEM reference programs and launchers as the build found them
// (reference_paths.cpp); "" where it found none.
#pragma once

namespace bench {

extern const char* const built_mpirun;           ///< Open MPI's mpiexec, or ""
extern const char* const built_mpi_reference;    ///< splitc-bench-mpi-reference, or ""
extern const char* const built_oshrun;           ///< oshrun (the name alone if not found)
extern const char* const built_shmem_reference;  ///< splitc-bench-shmem-reference, or ""

}  // namespace bench
