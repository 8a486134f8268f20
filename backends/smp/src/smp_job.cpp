// Creating a job's shared memory: one memfd (not /dev/shm, which containers
// cap at 64 MiB), sized sparsely, with the job header written at its start.
// It disappears with the last process that holds it: nothing is left behind,
// whatever way the job ends.
#include <splitc/backends/smp.hpp>
#include <splitc/detail/launch.hpp>
#include <splitc/errors.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

namespace splitc::backends::smp {
namespace {

std::size_t env_size(const char* name, std::size_t fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  unsigned long long n = std::strtoull(v, &end, 0);
  switch (*end) {
    case 'k': case 'K': n <<= 10; ++end; break;
    case 'm': case 'M': n <<= 20; ++end; break;
    case 'g': case 'G': n <<= 30; ++end; break;
    default: break;
  }
  if (*end != '\0' || n == 0) detail::fail("environment variable {}={} is not a size", name, v);
  return static_cast<std::size_t>(n);
}

}  // namespace

int create_job_memory(int procs) {
  job_layout layout;
  layout.procs = procs;
  layout.segment_size =
      job_layout::round_up(env_size("SPLITC_SEGMENT_SIZE", std::size_t{1} << 30), 1 << 21);
  // A power of two, so ring positions are masked rather than divided.
  layout.ring_bytes = std::bit_ceil(env_size("SPLITC_SMP_RING_BYTES", std::size_t{1} << 20));
  if (layout.ring_bytes < 4 * (smp_backend::max_payload + 4096)) {
    detail::fail("SPLITC_SMP_RING_BYTES must be at least {} bytes", 4 * (smp_backend::max_payload + 4096));
  }
  const std::size_t base = env_size("SPLITC_SEGMENT_BASE", std::size_t{0x100000000000});

  const int fd = memfd_create("splitc-job", MFD_CLOEXEC);
  if (fd < 0) detail::fail("smp: memfd_create failed: {}", std::strerror(errno));
  if (ftruncate(fd, static_cast<off_t>(layout.total_bytes())) != 0) {
    detail::fail("smp: cannot size the job memory to {} bytes: {}", layout.total_bytes(),
                 std::strerror(errno));
  }
  const job_header header{job_magic, 1, static_cast<std::uint64_t>(procs), layout.segment_size,
                          layout.ring_bytes, base};
  if (pwrite(fd, &header, sizeof header, 0) != static_cast<ssize_t>(sizeof header)) {
    detail::fail("smp: cannot write the job header: {}", std::strerror(errno));
  }
  return fd;
}

}  // namespace splitc::backends::smp

namespace splitc::detail {

int launch_job(const launch_options& options, char** argv) {
  const int fd = backends::smp::create_job_memory(options.procs);
  return run_job(options, argv, job_plan{{{"SPLITC_SMP_FD", std::to_string(fd)}}, {fd}});
}

}  // namespace splitc::detail
