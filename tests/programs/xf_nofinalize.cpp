// Error: processor 1 returns from main without finalize() while the others finalize; the job
// ends with "the process exited without calling finalize()" instead of waiting forever.
#include "harness.hpp"

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  splitc::barrier();
  if (splitc::myproc() == 1) return 0;
  return harness::pass("xf_nofinalize");
}
