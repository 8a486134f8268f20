// Error: the launcher itself is signalled (by expect_failure.sh) while the job runs: with
// SIGTERM it ends the job and says so; with SIGKILL its processes die with it (no orphans).
#include "harness.hpp"

#include <unistd.h>

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  if (splitc::myproc() == 0) {
    std::printf("job ready to be signalled\n");
    std::fflush(stdout);
  }
  for (;;) {
    splitc::barrier();  // busy in barriers until the launcher goes
    usleep(1000);
  }
}
