// Error: processor 1 is killed with SIGKILL; the launcher names it and ends the job.
#include "harness.hpp"

#include <unistd.h>

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  // `splitc-expect failure --kill-printed-pid` kill -9s the pid it prints when ready.
  if (splitc::myproc() == 1) {
    std::printf("processor 1 (pid %ld) ready to be killed\n", static_cast<long>(getpid()));
    std::fflush(stdout);
    for (;;) pause();
  }
  splitc::barrier();
  return harness::pass("xf_sigkill");
}
