// A processor that stops answering (SIGSTOP after the first barrier) is
// declared dead by HPAM after its retry limit, and the job ends with splitc's
// error naming it (hpam.dead_node).
//
// Processor 0 reads from the stopped one in a loop: a single read could be
// answered before processor 1 stops (processor 1 still polls in the barrier
// when processor 0 has left it), and then nobody would have a request to
// processor 1 outstanding and only the liveness watchdog would end the job.
#include "harness.hpp"

#include <signal.h>

namespace {
int word = 7;  // static: at the same address on every processor
}

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  splitc::barrier();
  if (splitc::myproc() == 1) raise(SIGSTOP);
  // Processor 0 reads from processor 1 until a read is never answered.
  if (splitc::myproc() == 0)
    for (;;) CHECK(splitc::read(splitc::toglobal(1, &word)) == 7);
  splitc::barrier();
  return harness::pass("hpam_dead");
}
