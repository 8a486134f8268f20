// Launching a job of the mpi backend: `splitc-run --backend mpi -n P prog`
// (and `SPLITC_PROCS=P prog`) run the mpirun of the MPI this library was
// built against, with -np P and flags for this host, and supervise it (the
// porting kit's external_launch.hpp: a dead processor is named, the status is
// 128 + signal, Open MPI's shared-memory files are removed). Programs may as
// well be started with mpirun, mpiexec or srun directly: the backend takes
// its identity from MPI, not from splitc-run.
#include <mpi.h>  // OPEN_MPI or MPICH_VERSION: which launcher and flags
#include <splitc/backends/mpi.hpp>
#include <splitc/detail/launch.hpp>
#include <splitc/errors.hpp>
#include <splitc/port/address_space.hpp>
#include <splitc/port/env.hpp>
#include <splitc/port/external_launch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#ifndef SPLITC_MPI_MPIRUN
#if defined(OPEN_MPI)
#define SPLITC_MPI_MPIRUN "mpirun.openmpi"
#else
#define SPLITC_MPI_MPIRUN "mpirun.mpich"
#endif
#endif

namespace splitc::detail {
namespace {

bool under_mpi_launcher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK"}) {
    if (std::getenv(name) != nullptr) return true;
  }
  return false;
}

std::string resolve_program(const char* program) {
  if (std::strcmp(program, "/proc/self/exe") != 0) return program;
  std::string self(4096, '\0');
  const ssize_t n = readlink("/proc/self/exe", self.data(), self.size() - 1);
  if (n <= 0) fail("splitc-run: cannot resolve /proc/self/exe: {}", std::strerror(errno));
  self.resize(static_cast<std::size_t>(n));
  return self;
}

#if defined(OPEN_MPI)
void set_default(const char* name, const char* value) { setenv(name, value, 0); }
#endif

}  // namespace

int launch_job(const launch_options& options, char** argv) {
  if (options.procs < 1) fail("splitc-run: the job needs at least one process");
  if (under_mpi_launcher()) {
    fail("SPLITC_PROCS asks for a job of {} processes, but this process was itself started by "
         "an MPI launcher; unset SPLITC_PROCS (mpirun's -np sets the job size)",
         options.procs);
  }
  const std::string mpirun(port::env::mpirun.value().value_or(SPLITC_MPI_MPIRUN));
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const bool oversubscribed = static_cast<unsigned>(options.procs) > cores;

  std::vector<std::string> cmd{mpirun};
#if defined(OPEN_MPI)
  if (geteuid() == 0) cmd.emplace_back("--allow-run-as-root");
  cmd.insert(cmd.end(), {"-np", std::to_string(options.procs)});
  if (oversubscribed) {
    cmd.insert(cmd.end(), {"--oversubscribe", "--bind-to", "none"});
  } else {
    cmd.insert(cmd.end(), {"--bind-to", "core"});
  }
  if (options.label_output) cmd.emplace_back("--tag-output");
  // The fast single-host setup (docs/mpi.md), unless the environment says
  // otherwise: ob1 over shared memory; osc rdma for the backend's window
  // (osc sm serves only MPI_Win_allocate*, which programs may use).
  set_default("OMPI_MCA_pml", "ob1");
  set_default("OMPI_MCA_btl", "self,vader");
  set_default("OMPI_MCA_osc", "sm,rdma,pt2pt");
#else
  cmd.insert(cmd.end(), {"-np", std::to_string(options.procs)});
  if (!oversubscribed) cmd.insert(cmd.end(), {"-bind-to", "core"});
  if (options.label_output) cmd.emplace_back("-prepend-rank");
#endif
  for (std::string& w : port::env::mpirun_args.get()) cmd.push_back(std::move(w));
  cmd.push_back(resolve_program(argv[0]));
  for (char** a = argv + 1; *a != nullptr; ++a) cmd.emplace_back(*a);

  // Every process of the job is a member already: no nested launch.
  setenv(port::env::job.name, "mpi", 1);
  if (!options.keep_aslr && !port::env::keep_aslr.get()) {
    // Same executable, same layout: static data at the same address on
    // every processor (inherited through mpirun by every process).
    port::disable_randomisation();
  } else {
    setenv(port::env::keep_aslr.name, "1", 1);
  }
  if (port::env::mpi_verbose.get()) {
    std::string line = "splitc-run:";
    for (const auto& w : cmd) line += " " + w;
    std::fprintf(stderr, "%s\n", line.c_str());
  }
#if defined(OPEN_MPI)
  // Open MPI's shared-memory segments go into the job's private directory,
  // removed after the job however mpirun ended (killed, it leaves them).
  const std::string private_dir = "OMPI_MCA_btl_vader_backing_directory";
  const std::string hint = " (install openmpi-bin, or name the launcher with SPLITC_MPIRUN)";
#else
  const std::string private_dir;
  const std::string hint = " (install mpich, or name the launcher with SPLITC_MPIRUN)";
#endif
  return port::run_external_launcher(cmd, private_dir, hint);
}

}  // namespace splitc::detail
