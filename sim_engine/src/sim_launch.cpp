// splitc-run --backend sim: the job is one process, so the launcher starts
// the program with SPLITC_PROCS and watches it (the porting kit's
// run_external_launcher: it names a death by signal and passes SIGINT and
// SIGTERM on). The program's init() then runs every processor as a fiber.
#include <splitc/backend.hpp>
#include <splitc/port/launch.hpp>
#include <splitc/port/env.hpp>
#include <splitc/port/external_launch.hpp>
#include <splitc/port/launcher_check.hpp>

#include <stdlib.h>

#include <string>
#include <vector>

namespace splitc::port {

int launch_job(const launch_options& options, char** argv) {
  setenv(port::env::procs.name, std::to_string(options.procs).c_str(), 1);
  port::announce_launcher(active_backend::name);
  // The job is this backend's: the program does not launch itself again (SPLITC_PROCS is read).
  setenv(port::env::job.name, active_backend::name, 1);
  std::vector<std::string> command;
  for (char** a = argv; *a != nullptr; ++a) command.emplace_back(*a);
  return port::run_external_launcher(command, {}, "");
}

}  // namespace splitc::port
