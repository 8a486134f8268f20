// Error: processor 1 exits with status 3 while the others wait in a barrier; the launcher
// names it ("processor 1 (pid ...) exited with status 3") and ends the job with status 3.
#include "harness.hpp"

#include <cstdlib>

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  if (splitc::myproc() == 1) std::exit(3);
  splitc::barrier();
  return harness::pass("xf_exit3");
}
