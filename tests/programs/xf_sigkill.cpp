// Error: processor 1 is killed with SIGKILL (by expect_failure.sh, once it says it is ready)
// while the others wait in a barrier; the launcher names it ("killed by signal 9").
#include "harness.hpp"

#include <unistd.h>

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  if (splitc::myproc() == 1) {
    std::printf("processor 1 ready to be killed\n");
    std::fflush(stdout);
    for (;;) pause();
  }
  splitc::barrier();
  return harness::pass("xf_sigkill");
}
