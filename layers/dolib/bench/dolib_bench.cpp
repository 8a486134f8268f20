// The splitc side of the DOLIB comparison: do_gather, do_scatter and do_daxpby of the index
// lists of bench_lists.h into a double array of n elements laid out as Global Arrays lays it
// out (one contiguous share per processor: pages of 1024 items, a block of ceil(n/P) items
// per processor), without and with the page cache. Run under splitc-run; prints one CSV line
// per measurement, the columns of ga_bench: impl,op,n,m,locality,cache,rep,seconds (slowest
// processor). With --cache the gather is repeated on a read-only array with caching on (the
// first gather, which fills the cache, is not timed).
#include <dolib.h>

#include <splitc/port/env.hpp>
#include <splitc/splitc.hpp>

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench_lists.h"
#include "dolib_bench_options.hpp"

namespace {
double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
double slowest(double t) { return splitc::reduce_to_all(t, splitc::ops::max{}); }
}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  dolib_bench::options o;
  if (const auto status = dolib_bench::parse_options(argc, argv, o)) {
    splitc::finalize();
    return *status;
  }
  const int me = splitc::myproc(), P = splitc::procs();
  do_init(me, P);
  const int share = (o.n + P - 1) / P;
  const int blocksize = (share + o.pagesize - 1) / o.pagesize;
  int A = 0;
  do_declare(&A, "x", o.n, "double", o.pagesize, blocksize);
  {
    // Initialise: each processor its own contiguous part (local writes).
    const long long first = static_cast<long long>(me) * o.pagesize * blocksize;
    const long long last =
        std::min<long long>(o.n, first + static_cast<long long>(o.pagesize) * blocksize);
    std::vector<double> v(static_cast<std::size_t>(std::max(0LL, last - first)), 0.0);
    do_bscatter(A, static_cast<int>(v.size()), static_cast<int>(std::min<long long>(first, o.n)),
                v.data());
    do_gsync();
  }
  std::vector<int> list(static_cast<std::size_t>(o.m));
  std::vector<double> v(static_cast<std::size_t>(o.m));
  for (int k = 0; k < o.m; ++k) v[static_cast<std::size_t>(k)] = k;
  if (o.cache) {
    do_setchsize(static_cast<int>((o.n + o.pagesize - 1) / o.pagesize));
    do_enable(A);
  }
  for (int rep = 0; rep < o.reps; ++rep) {
    bench_fill_list(list.data(), o.m, o.n, me, P, o.locality,
                    o.seed + static_cast<unsigned long long>(rep));
    static const char* names[3] = {"gather", "scatter", "axpby"};
    if (o.cache) do_gather(A, o.m, list.data(), v.data());  // fills the cache: not timed
    for (int op = 0; op < (o.cache ? 1 : 3); ++op) {
      do_gsync();
      const double t0 = now();
      if (op == 0) do_gather(A, o.m, list.data(), v.data());
      if (op == 1) do_scatter(A, o.m, list.data(), v.data());
      if (op == 2) do_daxpby(A, o.m, list.data(), v.data(), 1.0, 1.0);
      // A gather is complete when it returns; scatters and axpbys when do_gsync returns.
      if (op != 0) do_gsync();
      const double mine = now() - t0;
      const double t = slowest(mine);
      if (splitc::port::env::dolib_bench_stats.get()) {
        long long st[5];
        do_getstats(st);
        std::fprintf(stderr, "processor %d: %.6f s, messages %lld items %lld hits %lld misses %lld evictions %lld\n", me, mine, st[0], st[1], st[2], st[3], st[4]);
      }
      if (me == 0)
        std::printf("dolib,%s,%d,%d,%d,%s,%d,%.9f\n", names[op], o.n, o.m, o.locality,
                    o.cache ? "on" : "off", rep, t);
    }
  }
  std::fflush(stdout);
  if (o.cache) do_disable(A);
  do_destroy(A);
  splitc::finalize();
  return 0;
}
