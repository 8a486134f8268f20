// Error: dereferencing a null global pointer ends the job with "null global pointer".
#include "harness.hpp"

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  if (splitc::myproc() == splitc::procs() - 1) {
    const splitc::global_ptr<int> null(0, nullptr);
    const int v = *null;
    std::printf("read %d through a null global pointer\n", v);
  }
  splitc::barrier();
  return harness::pass("xf_null");
}
