// Single-process microbenchmarks of the spread heap's allocator (the
// seed's spread_malloc/spread_free and the global heap), in a job of one on
// smp: allocation and free of one object beside malloc/free of the same size,
// and of a batch that fragments the heap. A ctest runs each once (--benchmark_min_time=0).
#include <splitc/splitc.hpp>

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <vector>

namespace {

void spread_malloc_free(benchmark::State& state) {
  const auto size = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) {
    auto p = splitc::spread_malloc(1, size);
    benchmark::DoNotOptimize(p.local());
    splitc::spread_free(p);
  }
}
BENCHMARK(spread_malloc_free)->Arg(8)->Arg(4096)->Arg(1 << 20);

// The reference: the C library's allocator, the same sizes.
void malloc_free(benchmark::State& state) {
  const auto size = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) {
    void* p = std::malloc(size);
    benchmark::DoNotOptimize(p);
    std::free(p);
  }
}
BENCHMARK(malloc_free)->Arg(8)->Arg(4096)->Arg(1 << 20);

void global_malloc_free(benchmark::State& state) {
  for (auto _ : state) {
    auto p = splitc::global_malloc(64);
    benchmark::DoNotOptimize(p.local());
    splitc::global_free(p);
  }
}
BENCHMARK(global_malloc_free);

// 256 live blocks of mixed sizes, freed every other one and reallocated.
void fragmented_batch(benchmark::State& state) {
  std::vector<splitc::spread_ptr<void>> live(256);
  for (std::size_t i = 0; i < live.size(); ++i) live[i] = splitc::spread_malloc(1, 16 + 48 * (i % 7));
  for (auto _ : state) {
    for (std::size_t i = 0; i < live.size(); i += 2) splitc::spread_free(live[i]);
    for (std::size_t i = 0; i < live.size(); i += 2) live[i] = splitc::spread_malloc(1, 32 + 16 * (i % 5));
  }
  for (auto& p : live) splitc::spread_free(p);
  state.SetItemsProcessed(state.iterations() * 128);
}
BENCHMARK(fragmented_batch);

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  splitc::finalize();
  return 0;
}
