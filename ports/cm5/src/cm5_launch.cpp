// Launching a job of a CM-5 port on real processes (splitc-run --backend
// cmaml or cmam): the partition (one shared-memory file, made by the
// emulation's CMMD_partition_create) inherited by every process through
// CMMD_PARTITION_FD, and the processes through the porting kit's supervisor
// (run_job), which numbers them; each enrolls as the node of its number.
#include <splitc/port/launch.hpp>
#include <splitc/port/fail.hpp>

#include <cmmd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace splitc::port {

int launch_job(const launch_options& options, char** argv) {
  const int fd = CMMD_partition_create(options.procs);
  if (fd < 0)
    fail("cannot make a CM-5 partition of {} nodes: {}", options.procs, std::strerror(errno));
  return run_job(options, argv, job_plan{{{"CMMD_PARTITION_FD", std::to_string(fd)}}, {fd}});
}

}  // namespace splitc::port
