// A processor that stops answering (SIGSTOP after the first barrier) is
// declared dead by HPAM after its retry limit, and the job ends with splitc's
// error naming it (hpam.dead_node).
#include "harness.hpp"

#include <signal.h>

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  splitc::barrier();
  if (splitc::myproc() == 1) raise(SIGSTOP);
  splitc::barrier();
  return harness::pass("hpam_dead");
}
