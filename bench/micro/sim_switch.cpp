// The sim engine's costs in host time: a processor switch (a read of another
// processor's word is two switches: to it, whose handler replies, and back)
// and a one-way message through the event queue (a store, delivered when the
// receiver next runs). Run as a sim job of two (splitc-run-sim -n 2): processor
// 0 runs the benchmarks, processor 1 serves in a barrier. A ctest runs each
// once (--benchmark_min_time=0). Beside them, the reference: a round trip between two
// Boost.Context fibers. ports/sim/tests/switch_cost.cpp (sim_switch_cost) measures the
// read's switches as issue 44's bar states them; this puts them beside the reference.
#include <splitc/splitc.hpp>

#include <benchmark/benchmark.h>
#include <boost/context/fiber.hpp>

#include <utility>

namespace {

long* word() { return static_cast<long*>(splitc::my_segment().base); }

void read_other_processor(benchmark::State& state) {
  const auto g = splitc::toglobal(1, word());
  long sum = 0;
  for (auto _ : state) sum += splitc::read(g);
  benchmark::DoNotOptimize(sum);
  state.counters["switches"] = benchmark::Counter(2.0 * static_cast<double>(state.iterations()));
}
BENCHMARK(read_other_processor);

void store_to_other_processor(benchmark::State& state) {
  const auto g = splitc::toglobal(1, word() + 1);
  long v = 0;
  for (auto _ : state) splitc::store(g, ++v);
  // Untimed: the stores queued at processor 1 are handled before the next benchmark (a
  // read's request is handled after them), so that they are not charged to it.
  benchmark::DoNotOptimize(splitc::read(splitc::toglobal(1, word())));
}
BENCHMARK(store_to_other_processor);

// The reference: a switch between two Boost.Context fibers and back, what the engine's
// processors are (issue 44: the engine's switch also maps the segment window).
void boost_fiber_round_trip(benchmark::State& state) {
  namespace ctx = boost::context;
  ctx::fiber other{[](ctx::fiber&& back) {
    for (;;) back = std::move(back).resume();
    return std::move(back);
  }};
  for (auto _ : state) other = std::move(other).resume();
  state.counters["switches"] = benchmark::Counter(2.0 * static_cast<double>(state.iterations()));
}
BENCHMARK(boost_fiber_round_trip);

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  *word() = splitc::myproc();
  splitc::barrier();
  int status = 0;
  if (splitc::myproc() == 0 && splitc::procs() == 2) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) status = 1;
    else benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
  }
  splitc::all_store_sync();
  splitc::finalize();
  return status;
}
