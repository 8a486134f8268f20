// Launching and starting the shmem backend (the T3D port on OpenSHMEM):
// `splitc-run --backend shmem -n P prog` (and `SPLITC_PROCS=P prog`) run
// oshrun -np P under the porting kit's supervision (external_launch.hpp: a
// dead PE is named, the status is 128 + signal); a program started plainly
// with `oshrun -np P prog` works too, taking its identity from OpenSHMEM.
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

#include "../../t3d/src/layer_start.hpp"

#ifndef SPLITC_SHMEM_OSHRUN
#define SPLITC_SHMEM_OSHRUN "oshrun"
#endif

namespace splitc {
namespace {

long oshrun_job_size() {
  const char* v = std::getenv("OMPI_COMM_WORLD_SIZE");
  return v != nullptr && *v != '\0' ? std::atol(v) : 0;
}

std::string resolve_program(const char* program) {
  if (std::strcmp(program, "/proc/self/exe") != 0) return program;
  std::string self(4096, '\0');
  const ssize_t n = readlink("/proc/self/exe", self.data(), self.size() - 1);
  if (n <= 0) detail::fail("splitc-run: cannot resolve /proc/self/exe: {}", std::strerror(errno));
  self.resize(static_cast<std::size_t>(n));
  return self;
}

/// Open MPI's settings for OpenSHMEM on this host, unless the environment
/// says otherwise: without the first, every OpenSHMEM process crashes in
/// shmem_finalize here (UCX's memory hooks); the second is the symmetric
/// heap's size.
void set_layer_defaults(std::size_t symmetric_bytes) {
  setenv("OMPI_MCA_opal_common_ucx_opal_mem_hooks", "0", 0);
  setenv("SHMEM_SYMMETRIC_HEAP_SIZE", std::to_string(symmetric_bytes).c_str(), 0);
}

}  // namespace

namespace backends::t3d {

void prepare_layer(start_arguments args, std::size_t symmetric_bytes) {
  // Static data at the same address on every PE: splitc-run turned
  // randomisation off for the job; under a plain oshrun re-execute without it.
  if (oshrun_job_size() > 1 && args.argv != nullptr) port::reexec_without_randomisation(*args.argv);
  set_layer_defaults(symmetric_bytes);
}

std::size_t segment_bytes(std::size_t wanted, std::size_t) { return wanted; }

}  // namespace backends::t3d

namespace detail {

int launch_job(const launch_options& options, char** argv) {
  if (options.procs < 1) fail("splitc-run: the job needs at least one process");
  if (oshrun_job_size() > 0) {
    fail("SPLITC_PROCS asks for a job of {} processes, but this process was itself started by "
         "oshrun; unset SPLITC_PROCS (oshrun's -np sets the job size)",
         options.procs);
  }
  const std::string oshrun(port::env::oshrun.value().value_or(SPLITC_SHMEM_OSHRUN));
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::string> cmd{oshrun};
  if (geteuid() == 0) cmd.emplace_back("--allow-run-as-root");
  cmd.insert(cmd.end(), {"-np", std::to_string(options.procs)});
  if (static_cast<unsigned>(options.procs) > cores) {
    cmd.insert(cmd.end(), {"--oversubscribe", "--bind-to", "none"});
  } else {
    cmd.insert(cmd.end(), {"--bind-to", "core"});
  }
  if (options.label_output) cmd.emplace_back("--tag-output");
  for (std::string& w : port::env::oshrun_args.get()) cmd.push_back(std::move(w));
  cmd.push_back(resolve_program(argv[0]));
  for (char** a = argv + 1; *a != nullptr; ++a) cmd.emplace_back(*a);

  // Every process of the job is a member already: no nested launch.
  setenv(port::env::job.name, "shmem", 1);
  if (!options.keep_aslr && !port::env::keep_aslr.get()) {
    port::disable_randomisation();  // inherited through oshrun by every PE
  } else {
    setenv(port::env::keep_aslr.name, "1", 1);
  }
  // The processes' defaults (the heap size is each process's own choice, in
  // prepare_layer); set here too so that oshrun's own start sees them.
  setenv("OMPI_MCA_opal_common_ucx_opal_mem_hooks", "0", 0);
  if (port::env::shmem_verbose.get()) {
    std::string line = "splitc-run:";
    for (const auto& w : cmd) line += " " + w;
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  return port::run_external_launcher(cmd, "OMPI_MCA_btl_vader_backing_directory",
                                     " (install openmpi-bin libopenmpi-dev, or name the launcher "
                                     "with SPLITC_OSHRUN)");
}

}  // namespace detail
}  // namespace splitc
