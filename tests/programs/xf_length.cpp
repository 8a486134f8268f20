// Error: a bulk transfer of (size_t)-1 bytes ends the job with "impossible length".
#include "harness.hpp"

#include <cstddef>

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  if (splitc::myproc() == 0) {
    unsigned char buf[16];
    const int right = 1 % splitc::procs();
    splitc::bulk_get(buf, splitc::toglobal<void>(right, harness::heap()),
                     static_cast<std::size_t>(-1));
    splitc::sync();
  }
  splitc::barrier();
  return harness::pass("xf_length");
}
