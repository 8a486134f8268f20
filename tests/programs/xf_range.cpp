// Error: a processor number out of range ends the whole job with "processor number 5 is out
// of range" while the others wait in a barrier.
#include "harness.hpp"

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  static int x = 0;
  if (splitc::myproc() == 0) {
    const int v = splitc::read(splitc::toglobal(5, &x));
    std::printf("read %d from processor 5\n", v);
  }
  splitc::barrier();
  return harness::pass("xf_range");
}
