// Launching a job of an NXAM port whose layer's emulation runs on MPI (nx, mpl and their
// _mpich variants): `splitc-run --backend nx -n P prog` runs the mpirun of the MPI the
// emulation was built against, through the porting kit (mpi_launcher.hpp). A plain
// `mpirun -np P prog` works too. (On the sim engine the engine's launch_job is used.)
#include <mpi.h>  // OPEN_MPI or MPICH_VERSION: which launcher and flags
#include <splitc/backends/nxam.hpp>
#include <splitc/port/launch.hpp>
#include <splitc/port/mpi_launcher.hpp>

#ifndef SPLITC_SUBSTRATE_LAUNCHER
#error "an NXAM port on MPI is built with SPLITC_SUBSTRATE_LAUNCHER (splitc_add_backend)"
#endif

namespace splitc::port {

int launch_job(const launch_options& options, char** argv) {
#if defined(OPEN_MPI)
  constexpr auto family = mpirun_family::open_mpi;
#else
  constexpr auto family = mpirun_family::hydra;
#endif
  return launch_on_mpi(options, argv, backends::nxam::nxam_backend::name,
                             SPLITC_SUBSTRATE_LAUNCHER, family);
}

}  // namespace splitc::port
