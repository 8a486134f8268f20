// Launching a job through an MPI-style launcher (mpirun, mpiexec, oshrun): the porting kit's
// piece for ports whose processes such a launcher starts (src/port/mpi_launcher.cpp). A port's
// launch_job sets the defaults its layer wants in the environment, then calls
// launch_with_mpirun; the kit builds the command line for the launcher's family, refuses a
// nested launch, turns address randomisation off for the job, and supervises the launcher
// (external_launch.hpp).
#pragma once

#include <splitc/port/launch.hpp>

#include <string>
#include <vector>

namespace splitc::port {

/// Which command-line conventions the launcher follows.
enum class mpirun_family {
  open_mpi,  ///< Open MPI's mpirun and oshrun: --oversubscribe, --bind-to, --tag-output
  hydra,     ///< MPICH's Hydra mpiexec: -bind-to, -prepend-rank
};

struct mpirun_job {
  const char* backend;              ///< the backend's name, exported as SPLITC_JOB
  std::string launcher;             ///< the launcher to run (path or name)
  const char* launcher_name;        ///< what a message calls it: "mpirun", "oshrun"
  mpirun_family family;
  std::vector<std::string> extra_args;  ///< the user's own, put before the program
  bool verbose = false;             ///< print the command line on stderr first
  /// run_external_launcher's: the layer's variables naming where it keeps shared-memory files
  std::vector<std::string> private_dir_variables;
  std::string hint;                 ///< follows the reason when the launcher cannot be started
};

/// Where an MPI built on UCX (Debian's Open MPI and MPICH, OpenSHMEM) keeps its shared-memory
/// files: its posix transport's directory, /dev/shm by default, where a job that dies leaves
/// them (a symmetric heap that did not fit in System V memory: gigabytes).
inline constexpr const char* ucx_posix_dir_variable = "UCX_POSIX_DIR";
/// Where Open MPI's vader transport keeps its segments.
inline constexpr const char* open_mpi_vader_dir_variable = "OMPI_MCA_btl_vader_backing_directory";
/// Where Open MPI's mpirun and oshrun put their session directory (/tmp/ompi.HOST.UID/...,
/// shared by every job of the user): launch_with_mpirun points it at the job's private
/// directory, so that no two jobs create and remove one directory at once.
inline constexpr const char* open_mpi_session_dir_variable = "OMPI_MCA_orte_tmpdir_base";

/// True when this process was itself started by an MPI-style launcher (Open MPI's, PMI's,
/// PMIx's environment).
bool started_by_mpi_launcher() noexcept;

/// Run `argv` (argv[0] may be /proc/self/exe) as `options.procs` processes through
/// `job.launcher` and return the job's status (run_external_launcher's). Fails, naming the
/// cause, when the job is empty or when this process was itself started by such a launcher.
/// Under Open MPI's launchers the session directory goes into the job's private directory
/// too (open_mpi_session_dir_variable), unless the environment names one.
int launch_with_mpirun(const launch_options& options, char** argv, const mpirun_job& job);

/// launch_with_mpirun for a port whose layer is MPI itself (or runs on it): the launcher that
/// SPLITC_MPIRUN names, else `built_with` (the mpirun of the MPI the port was compiled
/// against: SPLITC_SUBSTRATE_LAUNCHER), with SPLITC_MPIRUN_ARGS and SPLITC_MPI_VERBOSE. Under
/// Open MPI, its shared-memory files go into the job's private directory, and the fast
/// single-host setup (ob1 over shared memory, osc rdma for windows) is the default unless the
/// environment says otherwise.
int launch_on_mpi(const launch_options& options, char** argv, const char* backend,
                  const char* built_with, mpirun_family family);

}  // namespace splitc::port
