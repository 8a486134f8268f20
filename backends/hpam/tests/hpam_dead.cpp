// A processor that stops answering (SIGSTOP after the first barrier) is
// declared dead by HPAM after its retry limit, and the job ends with splitc's
// error naming it (hpam.dead_node).
#include "harness.hpp"

#include <signal.h>

namespace {
int word = 7;  // static: at the same address on every processor
}

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  splitc::barrier();
  if (splitc::myproc() == 1) raise(SIGSTOP);
  // Processor 0 reads from the stopped one: its request is never answered.
  if (splitc::myproc() == 0) CHECK(splitc::read(splitc::toglobal(1, &word)) == 7);
  splitc::barrier();
  return harness::pass("hpam_dead");
}
