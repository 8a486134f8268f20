// The job's supervision, probed (tests/supervision/generic.cmake). `sv_probe MODE [ARG]`:
//   stop R      processor R stops itself (SIGSTOP) after the first barrier; its watcher must
//               end the job within SPLITC_SILENCE, naming it;
//   stop_late R processor R stops itself 1.5 s after the first barrier (its watchdog has sent
//               heartbeats that a hostile neighbour may capture and replay);
//   skip R      processor R skips the program's last barrier before finalize: the job must end
//               naming a mismatch between finalize and a collective, never hang;
//   skip_reduce R  processor R skips the program's last reduction (one int, added: on the CM-5's
//               control network two native collectives, the agreement and the combine) alike;
//   extra R     processor R calls one barrier more than the others before finalize, alike;
//   exit0 R     processor R leaves with _exit(0), without finalize and without exit handlers;
//               the job must end promptly, naming it;
//   compute S   processor 1 computes S seconds without polling (longer than the silence
//               limit): that is not silence; the job passes;
//   ok          a plain job that passes (for the launcher checks);
//   hold        processor 0 prints "job ready", then the job waits in barriers until it is
//               ended from outside;
//   hold_until F  as hold, but the job passes once the file F exists (processor 0 looks, every
//               processor learns it by a reduction): frozen_job.sh freezes such a job whole.
#include "harness.hpp"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const std::string mode = argc > 1 ? argv[1] : "ok";
  const double arg = argc > 2 ? std::atof(argv[2]) : 1;
  splitc::barrier();
  if (mode == "stop" && splitc::myproc() == static_cast<int>(arg)) raise(SIGSTOP);
  if (mode == "stop_late" && splitc::myproc() == static_cast<int>(arg)) {
    usleep(1500 * 1000);
    raise(SIGSTOP);
  }
  if (mode == "exit0" && splitc::myproc() == static_cast<int>(arg)) _exit(0);
  if (mode == "compute" && splitc::myproc() == 1) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(arg);
    volatile std::uint64_t x = 1;
    while (std::chrono::steady_clock::now() < until) x = x * 6364136223846793005ULL + 1;
  }
  if (mode == "hold" || mode == "hold_until") {
    if (splitc::myproc() == 0) {
      std::printf("job ready\n");
      std::fflush(stdout);
    }
    for (;;) {
      if (mode == "hold_until") {
        const int found = splitc::myproc() == 0 && argc > 2 && access(argv[2], F_OK) == 0;
        if (splitc::reduce_to_all(found, splitc::ops::max{}) != 0) return harness::pass("sv_probe");
      } else {
        splitc::barrier();
      }
      usleep(1000);
    }
  }
  const bool chosen = splitc::myproc() == static_cast<int>(arg);
  if (mode == "skip_reduce") {  // the program's last collective
    if (!chosen) CHECK(splitc::reduce_to_all(1, splitc::ops::add{}) == splitc::procs());
    return harness::pass("sv_probe");
  }
  if (mode == "extra" && chosen) splitc::barrier();
  if (!(mode == "skip" && chosen)) splitc::barrier();
  return harness::pass("sv_probe");
}
