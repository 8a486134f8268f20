// dolib-bench's command line: dolib_bench_options.hpp.
#include "dolib_bench_options.hpp"

#include <CLI/CLI.hpp>

namespace dolib_bench {

std::optional<int> parse_options(int argc, char** argv, options& o) {
  CLI::App app{"dolib-bench: DOLIB gather/scatter/axpby on splitc"};
  app.add_option("-n,--size", o.n, "array elements");
  app.add_option("-m,--list", o.m, "list length per processor");
  app.add_option("--locality", o.locality, "0: uniform over the array, 1: the caller's own share");
  app.add_option("-r,--reps", o.reps, "repetitions");
  app.add_option("--seed", o.seed, "index stream seed");
  app.add_option("--pagesize", o.pagesize, "items per page");
  app.add_flag("--cache", o.cache, "time repeated gathers with the page cache on");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return std::nullopt;
}

}  // namespace dolib_bench
