// launch_job for a backend declared SUBSTRATE openmpi or mpich (cmake/SplitcBackend.cmake
// compiles this source into it, as sim_engine/src/sim_launch.cpp for SUBSTRATE sim):
// `splitc-run --backend <name> -n P prog` (and `SPLITC_PROCS=P prog`) run the mpirun of the
// MPI the backend was built against (SPLITC_SUBSTRATE_LAUNCHER), with -np P and flags for
// this host, under the kit's supervision (mpi_launcher.hpp). Programs may as well be started
// with mpirun, mpiexec or srun directly: such a backend takes its identity from MPI.
#include <mpi.h>  // OPEN_MPI or MPICH_VERSION: which launcher family
#include <splitc/backend.hpp>
#include <splitc/port/launch.hpp>
#include <splitc/port/mpi_launcher.hpp>

#ifndef SPLITC_SUBSTRATE_LAUNCHER
#error "SPLITC_SUBSTRATE_LAUNCHER names the MPI's launcher (splitc_add_backend's SUBSTRATE)"
#endif

namespace splitc::port {

int launch_job(const launch_options& options, char** argv) {
#if defined(OPEN_MPI)
  constexpr auto family = mpirun_family::open_mpi;
#else
  constexpr auto family = mpirun_family::hydra;
#endif
  return launch_on_mpi(options, argv, active_backend::name, SPLITC_SUBSTRATE_LAUNCHER, family);
}

}  // namespace splitc::port
