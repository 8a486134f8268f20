// Error: freeing spread-heap space twice ends the job with "double free".
#include "harness.hpp"

#include <cstring>

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const bool one_sided = argc > 1 && std::strcmp(argv[1], "one-sided") == 0;
  if (one_sided) {
    splitc::spread_ptr<int> p = splitc::spread_malloc<int>(8);
    splitc::spread_free(p);
    splitc::spread_free(p);
  } else {
    splitc::spread_ptr<int> p = splitc::all_spread_malloc<int>(8);
    splitc::all_spread_free(p);
    splitc::all_spread_free(p);
  }
  splitc::barrier();
  return harness::pass("xf_double_free");
}
