// Error: the launcher is signalled (TERM: it ends the job; KILL: its processes die too).
#include "harness.hpp"

#include <unistd.h>

// `splitc-expect failure --signal-launcher` signals splitc-run once processor 0 says the job
// is ready.
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
