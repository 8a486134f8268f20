// Supervising a job whose processes another launcher starts (mpirun,
// mpiexec): the porting kit's piece for backends whose launcher is not
// run_job (src/port/external_launch.cpp).
//
// splitc-run runs the launcher as its child instead of becoming it, and
// every process of the job, at init, first splits itself in two: a small
// rank supervisor that the foreign launcher sees, and the processor itself,
// its child. The supervisor names a processor that dies ("splitc-run:
// processor R (pid X) was killed by signal N (name); ending the job"),
// exits 128 + N, and reports it to splitc-run over a Unix socket in the
// job's private directory; splitc-run exits with the first reported failure
// (or 128 + N when it is itself interrupted), whatever the launcher's own
// convention, and removes the directory, with whatever shared-memory files
// the MPI library left in it, when the launcher is done.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace splitc::port {

/// Called by init() first: if splitc-run asked for it (SPLITC_SUPERVISE, "PID:PATH":
/// splitc-run's process id and the report socket in the job's private directory) and `may_fork` (the
/// backend's layer is not yet initialised: a program that called MPI_Init
/// itself goes unsupervised, and mpirun reports its death), fork; the parent
/// supervises the child and never returns, the child returns and goes on.
/// `whole_job`: the process holds every processor of the job (the sim engine's backends);
/// the supervisor's messages name the job's process, not a processor.
void supervise_rank_if_asked(bool may_fork, bool whole_job = false);

/// Called by finalize(): tells the rank supervisor (if any) that this
/// processor reached finalize, so that its exit is not an early one.
void tell_supervisor_finalized() noexcept;

/// Run `command` (a launcher and its arguments) as a child with `environment`
/// added, supervise it, and return the job's status as splitc-run reports
/// it. Each of `private_dir_variables` is set (unless already set) to the job's
/// private directory, removed when the job ends however it ends (Open MPI's vader
/// backing directory, UCX's posix directory: what the layer leaves there goes too).
/// `hint` follows the reason when the launcher cannot be started.
int run_external_launcher(const std::vector<std::string>& command,
                          const std::vector<std::string>& private_dir_variables,
                          const std::string& hint);

}  // namespace splitc::port
