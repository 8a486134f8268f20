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

/// Called by init() first: ends the process with a message naming both
/// backends (or the foreign launcher) if this process was started by a
/// launcher that does not fit `backend`.
void check_launcher(const char* backend);

}  // namespace splitc::port
