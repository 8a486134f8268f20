// Launching a job: the backend-independent supervisor (src/launcher.cpp)
// and the one hook each backend provides to prepare a job's resources.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace splitc::port {

/// What every process of a job inherits from the launcher.
struct job_plan {
  std::vector<std::pair<std::string, std::string>> environment;
  std::vector<int> inherited_fds;
};

struct launch_options {
  int procs = 1;
  bool keep_aslr = false;  ///< leave address-space randomisation on in the children
  bool label_output = false;
};

/// Start `argv` as `procs` processes on this host with `plan`, supervise them
/// and return the job's exit status: 0, or the first failure (a signal
/// counts as 128 + signal). A process that fails ends the whole job within a
/// second; no orphans.
int run_job(const launch_options& options, char** argv, const job_plan& plan);

/// Defined by each backend: launch a job of this backend (usually: prepare
/// the job's shared resources, then run_job; a backend whose processes are
/// started by another launcher, such as mpirun, execs that instead).
int launch_job(const launch_options& options, char** argv);

}  // namespace splitc::port
