// Error: processor 1 returns from main without finalize(); the job ends instead of hanging.
#include "harness.hpp"

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  splitc::barrier();
  if (splitc::myproc() == 1) return 0;
  return harness::pass("xf_nofinalize");
}
