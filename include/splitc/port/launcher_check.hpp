// Which launcher started this process, and whether it fits the backend the
// program is linked with (the porting kit; src/port/launcher_check.cpp).
//
// splitc's launchers name their backend in SPLITC_LAUNCHED_BY, which every
// process of the job inherits; MPI launchers (Open MPI's mpirun, MPICH's
// Hydra, Slurm's srun) are recognised by their own environment variables. A
// program started by a launcher that is not its backend's would otherwise run
// as P separate jobs of one, or worse; init refuses it, naming both.
//
// A program's file also says which backend it is linked with: the runtime
// puts "splitc-linked-backend=<name>" into it (src/runtime.cpp), and the
// default launcher reads it (linked_backend), so that `splitc-run -n 4 ./prog`
// hands a program linked with another backend to that backend's launcher.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace splitc::port {

/// What precedes the backend's name (and a NUL follows it) in a program's file.
inline constexpr std::string_view linked_backend_tag = "splitc-linked-backend=";

/// The backend a program's file says it is linked with (its first tag), or
/// nothing when the file cannot be read or has no tag (a script, another program).
std::optional<std::string> linked_backend(const std::string& program_file);

/// Called by a launcher before it starts the job's processes (sets SPLITC_LAUNCHED_BY).
void announce_launcher(const char* backend);

/// The foreign launchers a backend's processes may be started by: its own launcher runs one
/// of them (mpirun, oshrun), or a user may start the program with one directly. A backend
/// declares them, or'ed (`static constexpr unsigned foreign_launchers = port::open_mpi |
/// port::slurm;`); the kit names no backend. Each is recognised by its own variables.
enum foreign_launcher_kind : unsigned {
  open_mpi = 1u << 0,  ///< Open MPI's mpirun, and its oshrun (OMPI_COMM_WORLD_SIZE)
  pmi = 1u << 1,       ///< MPICH's Hydra and other PMI launchers (PMI_SIZE)
  slurm = 1u << 2,     ///< Slurm's srun, a job step (SLURM_STEP_NUM_TASKS, SLURM_PROCID)
};

/// Called by init() first: ends the process with a message naming both
/// backends (or the foreign launcher) if this process was started by a
/// launcher that does not fit `backend`, which accepts `foreign_launchers`.
void check_launcher(const char* backend, unsigned foreign_launchers);

}  // namespace splitc::port
