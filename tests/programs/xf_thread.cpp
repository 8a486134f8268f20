// Error: a splitc call from a thread other than the one that called init ends the job with a
// message naming the processor and the cause, in every build (the check is the one every call
// makes for an uninitialized runtime: the runtime's pointer is per thread).
#include "harness.hpp"

#include <thread>

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  splitc::barrier();
  if (splitc::myproc() == splitc::procs() - 1) {
    std::thread second([] { splitc::barrier(); });
    second.join();
  }
  splitc::barrier();
  return harness::pass("xf_thread");
}
