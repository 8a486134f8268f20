// Creating a job's shared memory: one memfd (not /dev/shm, which containers
// cap at 64 MiB), sized sparsely, with the job header written at its start.
// It disappears with the last process that holds it: nothing is left behind,
// whatever way the job ends.
#include <splitc/backends/smp.hpp>
#include <splitc/port/launch.hpp>
#include <splitc/port/fail.hpp>
#include <splitc/port/env.hpp>
#include <splitc/port/segment.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

namespace splitc::backends::smp {

int create_job_memory(int procs) {
  job_layout layout;
  layout.procs = procs;
  const port::segment_geometry segment = port::segment_from_environment();
  layout.segment_size = segment.size;
  // A power of two, so ring positions are masked rather than divided.
  layout.ring_bytes = std::bit_ceil(port::env::smp_ring_bytes.get());
  if (layout.ring_bytes < 4 * (smp_backend::max_payload + 4096)) {
    port::fail("SPLITC_SMP_RING_BYTES must be at least {} bytes", 4 * (smp_backend::max_payload + 4096));
  }

  const int fd = memfd_create("splitc-job", MFD_CLOEXEC);
  if (fd < 0) port::fail("smp: memfd_create failed: {}", std::strerror(errno));
  if (ftruncate(fd, static_cast<off_t>(layout.total_bytes())) != 0) {
    port::fail("smp: cannot size the job memory to {} bytes: {}", layout.total_bytes(),
                 std::strerror(errno));
  }
  const job_header header{job_magic, 1, static_cast<std::uint64_t>(procs), layout.segment_size,
                          layout.ring_bytes, segment.base};
  if (pwrite(fd, &header, sizeof header, 0) != static_cast<ssize_t>(sizeof header)) {
    port::fail("smp: cannot write the job header: {}", std::strerror(errno));
  }
  return fd;
}

}  // namespace splitc::backends::smp

namespace splitc::port {

int launch_job(const launch_options& options, char** argv) {
  const int fd = backends::smp::create_job_memory(options.procs);
  return run_job(options, argv, job_plan{{{port::env::smp_fd.name, std::to_string(fd)}}, {fd}});
}

}  // namespace splitc::port
