// Launching and starting the shmem backend (the T3D port on OpenSHMEM):
// `splitc-run --backend shmem -n P prog` (and `SPLITC_PROCS=P prog`) run
// oshrun -np P under the porting kit's supervision (external_launch.hpp: a
// dead PE is named, the status is 128 + signal); a program started plainly
// with `oshrun -np P prog` works too, taking its identity from OpenSHMEM.
#include <splitc/port/launch.hpp>
#include <splitc/port/address_space.hpp>
#include <splitc/port/env.hpp>
#include <splitc/port/fail.hpp>
#include <splitc/port/machine_memory.hpp>
#include <splitc/port/mpi_launcher.hpp>
#include <splitc/port/segment.hpp>

#include <cstdlib>
#include <string>

#include "layer_start.hpp"

#ifndef SPLITC_SUBSTRATE_LAUNCHER
#define SPLITC_SUBSTRATE_LAUNCHER "oshrun"
#endif

namespace splitc {
namespace {

long oshrun_job_size() {
  const char* v = std::getenv("OMPI_COMM_WORLD_SIZE");
  return v != nullptr && *v != '\0' ? std::atol(v) : 0;
}

/// OpenSHMEM (UCX) may make every PE's symmetric heap in full before start_pes returns: in
/// System V memory, or, where that is refused, by writing a file of the heap's size in
/// /dev/shm (at about 1 GB/s, until the machine's memory is gone). So the heaps of the PEs
/// on this host must fit in its memory together: checked by splitc-run before oshrun starts
/// (every PE on this host, unless SPLITC_OSHRUN_ARGS names hosts) and by each PE before
/// start_pes (the PEs oshrun put on its host), naming the limit.
void check_heaps_fit(std::size_t symmetric_bytes, long pes) {
  if (pes < 1) pes = 1;
  const port::machine_memory m = port::this_machine_memory();
  const auto all = static_cast<unsigned __int128>(symmetric_bytes) * static_cast<unsigned long>(pes);
  if (m.total() != 0 && all > m.total()) {
    port::fail("shmem: {} symmetric heaps of {} (SPLITC_SEGMENT_SIZE and the mailboxes) on this "
               "host are more than its memory ({}), and OpenSHMEM may fill them in advance; "
               "choose a smaller SPLITC_SEGMENT_SIZE",
               pes, port::describe_bytes(symmetric_bytes), port::describe(m));
  }
}

/// The PEs oshrun started on this host (1 when not started by oshrun).
long pes_on_this_host() {
  const char* local = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  return local != nullptr && *local != '\0' ? std::atol(local) : 1;
}

/// Open MPI's settings for OpenSHMEM, unless the environment says otherwise (set by
/// splitc-run for oshrun's own start and by each PE, so a plain oshrun gets them too):
/// - UCX's memory hooks off: with them every OpenSHMEM process crashes in shmem_finalize here;
/// - the cm PML left out: OpenSHMEM starts Open MPI, whose PML selection initialises cm
///   (probing its MTLs for PSM2/OFI hardware) before it picks ob1 on a host without such
///   hardware; that probe cost 0.2 s of every job's 0.44 s start here (an OpenSHMEM
///   hello, oshrun -np 2: 0.42-0.49 s, with OMPI_MCA_pml=^cm 0.23-0.29 s). ob1 is chosen
///   either way, so nothing else changes; set OMPI_MCA_pml on a machine whose network wants cm.
void set_open_mpi_defaults() {
  setenv("OMPI_MCA_opal_common_ucx_opal_mem_hooks", "0", 0);
  setenv("OMPI_MCA_pml", "^cm", 0);
}

/// The PE's own settings: the above, and the symmetric heap's size.
void set_layer_defaults(std::size_t symmetric_bytes) {
  check_heaps_fit(symmetric_bytes, pes_on_this_host());
  set_open_mpi_defaults();
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

namespace port {

int launch_job(const launch_options& options, char** argv) {
  // The processes' defaults (the heap size is each process's own choice, in prepare_layer);
  // set here too so that oshrun's own start sees them.
  set_open_mpi_defaults();
  // The segment's size, and every PE's heap on this host, refused before oshrun starts.
  const std::size_t heap = segment_from_environment().size + backends::t3d::mailbox_reserve;
  if (env::oshrun_args.get().empty()) check_heaps_fit(heap, options.procs);
  return launch_with_mpirun(
      options, argv,
      {.backend = "shmem",
       .launcher = std::string(env::oshrun.value().value_or(SPLITC_SUBSTRATE_LAUNCHER)),
       .launcher_name = "oshrun",
       .family = mpirun_family::open_mpi,
       .extra_args = env::oshrun_args.get(),
       .verbose = env::shmem_verbose.get(),
       .private_dir_variables = {port::open_mpi_vader_dir_variable, port::ucx_posix_dir_variable},
       .hint = " (install openmpi-bin libopenmpi-dev, or name the launcher with SPLITC_OSHRUN)"});
}

}  // namespace port
}  // namespace splitc
