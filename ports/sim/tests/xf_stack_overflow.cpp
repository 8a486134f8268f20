// A processor that overflows its stack (sim): the guard below the fiber's
// stack catches it and the job ends naming the processor.
#include <splitc/splitc.hpp>

#include <cstdio>

namespace {
int deeper(int n) {
  volatile char frame[4096];
  frame[0] = static_cast<char>(n);
  return deeper(n + 1) + frame[0];
}
}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  splitc::barrier();
  if (splitc::myproc() == 1) std::printf("%d\n", deeper(0));
  splitc::finalize();
  return 0;
}
