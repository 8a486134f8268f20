// Which launcher started this process, and whether it fits the backend the
// program is linked with (the porting kit; src/port/launcher_check.cpp).
//
// splitc's launchers name their backend in SPLITC_LAUNCHED_BY, which every
// process of the job inherits; MPI launchers (Open MPI's mpirun, MPICH's
// Hydra, Slurm's srun) are recognised by their own environment variables. A
// program started by a launcher that is not its backend's would otherwise run
// as P separate jobs of one, or worse; init refuses it, naming both.
#pragma once

namespace splitc::port {

/// Called by a launcher before it starts the job's processes (sets SPLITC_LAUNCHED_BY).
void announce_launcher(const char* backend);

/// Called by init() first: ends the process with a message naming both
/// backends (or the foreign launcher) if this process was started by a
/// launcher that does not fit `backend`.
void check_launcher(const char* backend);

}  // namespace splitc::port
