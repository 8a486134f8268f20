// DOLIB's index location in one process: where global index i of an array
// lives (owner and local offset, the seed's wrap mapping) and which page it
// is on, for power-of-two and other page sizes, over random and sequential
// indices (dolib::array::locate and page_of, src/state.hpp). Google
// Benchmark; a ctest runs each once (--benchmark_min_time=0).
#include "../src/state.hpp"

#include <benchmark/benchmark.h>

#include <random>
#include <vector>

namespace {

dolib::array make_array(std::int64_t pagesize, std::int64_t blocksize) {
  dolib::array a;
  a.gsize = 10'000'000;
  a.pagesize = pagesize;
  a.blocksize = blocksize;
  a.block_items = pagesize * blocksize;
  a.npages = (a.gsize + pagesize - 1) / pagesize;
  for (int s = 0; s < 62; ++s)
    if ((std::int64_t{1} << s) == pagesize) a.page_shift = s;
  return a;
}

std::vector<std::int64_t> random_indices(std::int64_t n) {
  std::vector<std::int64_t> idx(100'000);
  std::mt19937_64 r(42);
  for (auto& i : idx) i = static_cast<std::int64_t>(r() % static_cast<std::uint64_t>(n));
  return idx;
}

void locate(benchmark::State& state) {
  const dolib::array a = make_array(state.range(0), state.range(1));
  const auto idx = random_indices(a.gsize);
  std::size_t k = 0;
  std::int64_t sum = 0;
  for (auto _ : state) {
    const dolib::place p = a.locate(idx[k], 16);
    sum += p.owner + p.offset + a.page_of(idx[k]);
    k = k + 1 == idx.size() ? 0 : k + 1;
  }
  benchmark::DoNotOptimize(sum);
}
BENCHMARK(locate)->Args({1024, 1})->Args({1000, 1})->Args({4096, 4})->Args({1, 1});

void locate_sequential(benchmark::State& state) {
  const dolib::array a = make_array(1024, 1);
  std::int64_t i = 0, sum = 0;
  for (auto _ : state) {
    const dolib::place p = a.locate(i, 16);
    sum += p.owner + p.offset;
    i = i + 1 == a.gsize ? 0 : i + 1;
  }
  benchmark::DoNotOptimize(sum);
}
BENCHMARK(locate_sequential);

}  // namespace

BENCHMARK_MAIN();
