// Error: processor number 5 out of range ends the whole job.
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
