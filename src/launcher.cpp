// run_job: the launcher of a backend whose processes splitc starts itself
// (smp; udp on one host): the porting kit's supervisor (port/supervisor.hpp)
// with the backend's plan. It starts the processes, hands each its place,
// and watches them: the first that dies or exits non-zero is named on stderr
// and the rest of the job is ended (SIGTERM, then SIGKILL half a second
// later), so nothing hangs and nothing is orphaned.
#include <splitc/port/launch.hpp>
#include <splitc/port/supervisor.hpp>

namespace splitc::port {

int run_job(const launch_options& options, char** argv, const job_plan& plan) {
  port::job_spec spec;
  spec.procs = options.procs;
  spec.keep_aslr = options.keep_aslr;
  spec.environment = plan.environment;
  spec.inherited_fds = plan.inherited_fds;
  spec.label_output = options.label_output;
  return port::supervise_job(spec, argv);
}

}  // namespace splitc::port
