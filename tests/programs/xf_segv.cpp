// Error: a global pointer to unmapped memory crashes its owner; the launcher names it.
#include "harness.hpp"

#include <cstdint>

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  if (splitc::myproc() == 0) {
    // Outside the segment: processor 1 serves the read by active message and faults.
    auto* nowhere = reinterpret_cast<int*>(std::uintptr_t{0x10});
    const int v = splitc::read(splitc::toglobal(1, nowhere));
    std::printf("read %d from nowhere\n", v);
  }
  splitc::barrier();
  return harness::pass("xf_segv");
}
