// Error: processor 1 is killed with SIGKILL; the launcher names it and ends the job.
#include "harness.hpp"

#include <unistd.h>

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  if (splitc::myproc() == 1) {  // expect_failure.sh kill -9s the pid it prints when ready
    std::printf("processor 1 (pid %ld) ready to be killed\n", static_cast<long>(getpid()));
    std::fflush(stdout);
    for (;;) pause();
  }
  splitc::barrier();
  return harness::pass("xf_sigkill");
}
