// Launching and starting the t3d backend (the T3D port on the T3D SHMEM
// emulation's processes, emulations/t3d): `splitc-run --backend t3d -n P
// prog` (and `SPLITC_PROCS=P prog`) make the job's shared memory with the
// emulation's t3d_job_create (<mpp/mppexec.h>: every PE's symmetric heap, of
// the segment plus the mailboxes' room) and start the PEs under the porting
// kit's supervisor (port/supervisor.hpp), as smp does: a PE that dies or
// fails is named and the rest of the job ends.
#include <mpp/mppexec.h>
#include <splitc/port/launch.hpp>
#include <splitc/port/fail.hpp>
#include <splitc/port/segment.hpp>

#include <cstdlib>
#include <string>

#include "layer_start.hpp"

namespace splitc {
namespace backends::t3d {

void prepare_layer(start_arguments, std::size_t symmetric_bytes) {
  // A PE started without the launcher (a job of one) makes its own heap.
  setenv(T3D_HEAP_BYTES_ENV, std::to_string(symmetric_bytes).c_str(), 0);
}

std::size_t segment_bytes(std::size_t wanted, std::size_t) { return wanted; }

}  // namespace backends::t3d

namespace port {

int launch_job(const launch_options& options, char** argv) {
  const std::size_t heap = port::segment_from_environment().size + backends::t3d::mailbox_reserve;
  const int fd = t3d_job_create(options.procs, heap, T3D_DEFAULT_HEAP_BASE);
  if (fd < 0) fail("splitc-run: cannot make the T3D job's memory ({} PEs of {} bytes)", options.procs, heap);
  return run_job(options, argv, job_plan{{{T3D_JOB_FD_ENV, std::to_string(fd)}}, {fd}});
}

}  // namespace port
}  // namespace splitc
