// Timing an operation that every process takes part in (a collective): all
// processes run the same fixed schedule of runs, each starting after a
// barrier, so nobody calibrates alone and falls out of step. Each run is the
// seed's loop of `iters` events minus an empty loop; the first run is thrown
// out and the rest go through the seed's filter (bench::summarize).
// Processor (rank) 0's timings are the ones reported.
#pragma once

#include "timing.hpp"

#include <vector>

namespace bench {

struct lockstep_plan {
  long iters = 2000;
  int runs = 30;
};

template <class Barrier, class Event>
summary lockstep(const lockstep_plan& plan, Barrier barrier, Event event) {
  std::vector<double> per_run;
  for (int r = 0; r <= plan.runs; ++r) {
    barrier();
    const std::int64_t t0 = now_ns();
    for (long i = 0; i < plan.iters; ++i) {
      event(i);
      clobber();
    }
    const std::int64_t t1 = now_ns();
    for (long i = 0; i < plan.iters; ++i) clobber();
    const std::int64_t t2 = now_ns();
    if (r > 0)  // the first run is thrown out
      per_run.push_back(static_cast<double>((t1 - t0) - (t2 - t1)) / static_cast<double>(plan.iters));
  }
  barrier();
  return summarize(per_run, plan.iters);
}

}  // namespace bench
