// Error: processor 1 exits with status 3; the launcher names it and ends the job.
#include "harness.hpp"

#include <cstdlib>

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  if (splitc::myproc() == 1) std::exit(3);
  splitc::barrier();
  return harness::pass("xf_exit3");
}
