// Launching a job of the mpi backend: `splitc-run --backend mpi -n P prog`
// (and `SPLITC_PROCS=P prog`) run the mpirun of the MPI this library was
// built against, with -np P and flags for this host, and supervise it (the
// porting kit's mpi_launcher.hpp: a dead processor is named, the status is
// 128 + signal, Open MPI's shared-memory files are removed). Programs may as
// well be started with mpirun, mpiexec or srun directly: the backend takes
// its identity from MPI, not from splitc-run.
#include <mpi.h>  // OPEN_MPI or MPICH_VERSION: which launcher and flags
#include <splitc/backends/mpi.hpp>
#include <splitc/port/launch.hpp>
#include <splitc/port/mpi_launcher.hpp>

#ifndef SPLITC_SUBSTRATE_LAUNCHER
#if defined(OPEN_MPI)
#define SPLITC_SUBSTRATE_LAUNCHER "mpirun.openmpi"
#else
#define SPLITC_SUBSTRATE_LAUNCHER "mpirun.mpich"
#endif
#endif

namespace splitc::port {

int launch_job(const launch_options& options, char** argv) {
#if defined(OPEN_MPI)
  constexpr auto family = mpirun_family::open_mpi;
#else
  constexpr auto family = mpirun_family::hydra;
#endif
  return launch_on_mpi(options, argv, backends::mpi::mpi_backend::name,
                             SPLITC_SUBSTRATE_LAUNCHER, family);
}

}  // namespace splitc::port
