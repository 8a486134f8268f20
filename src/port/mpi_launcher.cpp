// The porting kit's launch through an MPI-style launcher (include/splitc/port/mpi_launcher.hpp):
// the command line for Open MPI's mpirun and oshrun or MPICH's Hydra, on this host (binding
// to cores unless oversubscribed), and the job's supervision.
#include <splitc/errors.hpp>
#include <splitc/port/address_space.hpp>
#include <splitc/port/env.hpp>
#include <splitc/port/external_launch.hpp>
#include <splitc/port/mpi_launcher.hpp>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace splitc::port {
namespace {

/// The program to start: argv[0], or this executable's path when the runtime launches itself.
std::string resolve_program(const char* program) {
  if (std::strcmp(program, "/proc/self/exe") != 0) return program;
  std::string self(4096, '\0');
  const ssize_t n = readlink("/proc/self/exe", self.data(), self.size() - 1);
  if (n <= 0) detail::fail("splitc-run: cannot resolve /proc/self/exe: {}", std::strerror(errno));
  self.resize(static_cast<std::size_t>(n));
  return self;
}

}  // namespace

bool started_by_mpi_launcher() noexcept {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK"}) {
    if (std::getenv(name) != nullptr) return true;
  }
  return false;
}

int launch_with_mpirun(const launch_options& options, char** argv, const mpirun_job& job) {
  if (options.procs < 1) detail::fail("splitc-run: the job needs at least one process");
  if (started_by_mpi_launcher()) {
    detail::fail("SPLITC_PROCS asks for a job of {} processes, but this process was itself "
                 "started by {}; unset SPLITC_PROCS (the launcher's -np sets the job size)",
                 options.procs, job.launcher_name);
  }
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const bool oversubscribed = static_cast<unsigned>(options.procs) > cores;

  std::vector<std::string> cmd{job.launcher};
  if (job.family == mpirun_family::open_mpi) {
    if (geteuid() == 0) cmd.emplace_back("--allow-run-as-root");
    cmd.insert(cmd.end(), {"-np", std::to_string(options.procs)});
    if (oversubscribed) {
      cmd.insert(cmd.end(), {"--oversubscribe", "--bind-to", "none"});
    } else {
      cmd.insert(cmd.end(), {"--bind-to", "core"});
    }
    if (options.label_output) cmd.emplace_back("--tag-output");
  } else {
    cmd.insert(cmd.end(), {"-np", std::to_string(options.procs)});
    if (!oversubscribed) cmd.insert(cmd.end(), {"-bind-to", "core"});
    if (options.label_output) cmd.emplace_back("-prepend-rank");
  }
  if (job.family == mpirun_family::open_mpi) {
    // When a process fails, Open MPI's daemon sends the others SIGTERM, sleeps
    // odls_base_sigkill_timeout (1 s) whether or not they have ended, then sends SIGKILL, and
    // does so again when the job is terminated: a job ended 1-2 s after one of its processes
    // died. splitc's processors do nothing on SIGTERM that needs the grace (the launcher
    // removes the job's files), so none is given unless the user sets one.
    setenv("OMPI_MCA_odls_base_sigkill_timeout", "0", 0);
    // PMIx keeps the job's data (every process's endpoints) in a store in shared memory that
    // mpirun creates and clears for every job before a process starts: on one host the plain
    // hash store serves as well and starts faster (docs/running.md, "Failure"). A user's
    // setting wins.
    setenv("PMIX_MCA_gds", "hash", 0);
  }
  // Open MPI's session directory is /tmp/ompi.HOST.UID/pid.N by default: every job of the user
  // creates the top directory if it is missing and removes it once it is empty, so a job
  // starting as another ends could find it gone between its mkdir and its stat ("A call to
  // mkdir was unable to create the desired directory: /tmp/ompi.vm.0, File exists", orte_init
  // failed; seen once in a suite of four tests at a time on a machine just booted), and a
  // killed job leaves its pid.N behind. In the job's private directory it is the job's alone
  // and removed with it, however the job ends.
  std::vector<std::string> private_dirs = job.private_dir_variables;
  if (job.family == mpirun_family::open_mpi)
    private_dirs.emplace_back(open_mpi_session_dir_variable);
  cmd.insert(cmd.end(), job.extra_args.begin(), job.extra_args.end());
  cmd.push_back(resolve_program(argv[0]));
  for (char** a = argv + 1; *a != nullptr; ++a) cmd.emplace_back(*a);

  // Every process of the job is a member already: no nested launch.
  setenv(env::job.name, job.backend, 1);
  if (!options.keep_aslr && !env::keep_aslr.get()) {
    // Same executable, same layout: static data at the same address on every processor
    // (inherited through the launcher by every process).
    disable_randomisation();
  } else {
    setenv(env::keep_aslr.name, "1", 1);
  }
  if (job.verbose) {
    std::string line = "splitc-run:";
    for (const auto& w : cmd) line += " " + w;
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  return run_external_launcher(cmd, private_dirs, job.hint);
}

int launch_on_mpi(const launch_options& options, char** argv, const char* backend,
                  const char* built_with, mpirun_family family) {
  mpirun_job job{.backend = backend,
                 .launcher = std::string(env::mpirun.value().value_or(built_with)),
                 .launcher_name = "an MPI launcher",
                 .family = family,
                 .extra_args = env::mpirun_args.get(),
                 .verbose = env::mpi_verbose.get(),
                 .private_dir_variables = {ucx_posix_dir_variable},
                 .hint = " (install mpich, or name the launcher with SPLITC_MPIRUN)"};
  if (family == mpirun_family::open_mpi) {
    // Open MPI's shared-memory segments go into the job's private directory, removed after
    // the job however mpirun ended (killed, it leaves them).
    job.private_dir_variables.emplace_back(open_mpi_vader_dir_variable);
    job.hint = " (install openmpi-bin, or name the launcher with SPLITC_MPIRUN)";
    // The fast single-host setup (docs/mpi.md): ob1 over shared memory; osc rdma for the
    // backend's window (osc sm serves only MPI_Win_allocate*, which programs may use).
    setenv("OMPI_MCA_pml", "ob1", 0);
    setenv("OMPI_MCA_btl", "self,vader", 0);
    setenv("OMPI_MCA_osc", "sm,rdma,pt2pt", 0);
  }
  return launch_with_mpirun(options, argv, job);
}

}  // namespace splitc::port
