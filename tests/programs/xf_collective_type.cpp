// Error: processors calling the same collective with different element types
// (or operators, or different collectives) end the job with "collective mismatch".
#include "harness.hpp"

#include <cstring>
#include <vector>

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const bool counts = argc > 1 && std::strcmp(argv[1], "counts") == 0;
  if (counts) {
    std::vector<int> v(splitc::myproc() == 0 ? 10 : 11, 1);
    splitc::reduce_to_all(std::span<int>(v), splitc::ops::add{});
  } else if (splitc::myproc() == 0) {
    (void)splitc::reduce_to_all(1, splitc::ops::add{});
  } else {
    (void)splitc::reduce_to_all(1.0f, splitc::ops::add{});
  }
  splitc::barrier();
  return harness::pass("xf_collective_type");
}
