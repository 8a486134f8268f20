// dolib-bench's command line (CLI11), compiled once for every backend's dolib-bench
// (CMakeLists.txt): CLI11's headers were most of the compile of each.
#pragma once

#include <optional>

namespace dolib_bench {

struct options {
  int n = 10'000'000;      ///< array elements
  int m = 100'000;         ///< list length per processor
  int locality = 0;        ///< 0: uniform over the array, 1: the caller's own share
  int reps = 5;
  int pagesize = 1024;     ///< items per page
  unsigned long long seed = 1;
  bool cache = false;      ///< time repeated gathers with the page cache on
};

/// Reads argv into o: nullopt to go on, else the status to exit with (--help: 0; a bad option:
/// CLI11's), having printed why.
std::optional<int> parse_options(int argc, char** argv, options& o);

}  // namespace dolib_bench
