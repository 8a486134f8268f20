// Error: processors calling broadcast with different roots end the job with a
// "collective mismatch" that names both roots (processor 1 says root 1, the
// others root 0), instead of returning wrong values.
#include "harness.hpp"

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const splitc::proc_t root = splitc::myproc() == 1 ? 1 : 0;
  const int value = splitc::broadcast(100 + splitc::myproc(), root);
  std::printf("processor %d got %d\n", splitc::myproc(), value);
  splitc::barrier();
  return harness::pass("xf_broadcast_root");
}
