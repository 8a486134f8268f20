// Where splitc-bench finds its references when they are not beside it (bench/main.cpp):
// the MPI and OpenSHMEM reference programs and their launchers, as the build found them.
// Kept to this file, the only one compiled with those paths, so that the rest of the bench
// compiles to the same command line in any checkout and ccache finds it there
// (cmake/SplitcBench.cmake).
#include "reference_paths.hpp"

#ifndef SPLITC_BENCH_MPIRUN
#define SPLITC_BENCH_MPIRUN ""
#endif
#ifndef SPLITC_BENCH_MPI_REFERENCE
#define SPLITC_BENCH_MPI_REFERENCE ""
#endif
#ifndef SPLITC_BENCH_OSHRUN
#define SPLITC_BENCH_OSHRUN "oshrun"
#endif
#ifndef SPLITC_BENCH_SHMEM_REFERENCE
#define SPLITC_BENCH_SHMEM_REFERENCE ""
#endif

namespace bench {

const char* const built_mpirun = SPLITC_BENCH_MPIRUN;
const char* const built_mpi_reference = SPLITC_BENCH_MPI_REFERENCE;
const char* const built_oshrun = SPLITC_BENCH_OSHRUN;
const char* const built_shmem_reference = SPLITC_BENCH_SHMEM_REFERENCE;

}  // namespace bench
