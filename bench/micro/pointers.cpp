// Single-process microbenchmarks of global and spread pointers: the seed's
// Table 7 rows (a read through a global pointer whose target is local, spread
// indexing and increment, toglobal/tolocal) and spread-array index arithmetic.
// Google Benchmark in a job of one on smp; the multi-process tables are
// splitc-bench's. A ctest runs each once (--benchmark_min_time=0) so that
// none rots; the figures are read by people.
#include <splitc/splitc.hpp>

#include <benchmark/benchmark.h>

#include <array>
#include <vector>

namespace {

constexpr std::size_t kElements = 4096;

// The reference: the same read through a plain pointer.
void read_plain_pointer(benchmark::State& state) {
  std::vector<int> data(kElements, 1);
  const int* p = data.data();
  long sum = 0;
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(p);
    sum += p[i];
    i = (i + 1) % kElements;
  }
  benchmark::DoNotOptimize(sum);
}
BENCHMARK(read_plain_pointer);

void read_local_target(benchmark::State& state) {
  std::vector<int> data(kElements, 1);
  const auto g = splitc::toglobal(splitc::myproc(), data.data());
  long sum = 0;
  std::size_t i = 0;
  for (auto _ : state) {
    sum += splitc::read(g + static_cast<std::ptrdiff_t>(i));
    i = (i + 1) % kElements;
  }
  benchmark::DoNotOptimize(sum);
}
BENCHMARK(read_local_target);

void toglobal_tolocal(benchmark::State& state) {
  std::vector<int> data(kElements);
  std::size_t i = 0;
  for (auto _ : state) {
    const auto g = splitc::toglobal(splitc::myproc(), data.data() + i);
    benchmark::DoNotOptimize(g.local());
    benchmark::DoNotOptimize(g.proc());
    i = (i + 1) % kElements;
  }
}
BENCHMARK(toglobal_tolocal);

// Spread pointers over 16 processors (advanced with an explicit count: no job needed).
void spread_index(benchmark::State& state) {
  std::vector<int> data(kElements);
  const splitc::spread_ptr<int> base(splitc::toglobal(0, data.data()));
  std::ptrdiff_t i = 0;
  for (auto _ : state) {
    const auto p = base.advanced(i, 16);
    benchmark::DoNotOptimize(p.local());
    i = (i + 7) % 1024;
  }
}
BENCHMARK(spread_index);

void spread_increment(benchmark::State& state) {
  std::vector<int> data(kElements);
  splitc::spread_ptr<int> p(splitc::toglobal(0, data.data()));
  for (auto _ : state) {
    p = p.advanced(1, 16);
    benchmark::DoNotOptimize(p);
  }
}
BENCHMARK(spread_increment);

void spread_difference(benchmark::State& state) {
  std::vector<int> data(kElements);
  const splitc::spread_ptr<int> a(splitc::toglobal(0, data.data()));
  const auto b = a.advanced(1000, 16);
  for (auto _ : state) benchmark::DoNotOptimize(b.distance_from(a, 16));
}
BENCHMARK(spread_difference);

// Spread-array index arithmetic: where an element lives (owner and offset), per layout.
template <class L>
void place_elements(benchmark::State& state, const L& layout, const typename L::index_type& step) {
  const auto extents = layout.extents();
  typename L::index_type idx{};
  std::size_t sum = 0;
  for (auto _ : state) {
    sum += splitc::element_owner(layout, idx, 16) + splitc::element_offset(layout, idx, 16);
    for (std::size_t d = 0; d < L::rank; ++d) idx[d] = (idx[d] + step[d]) % extents[d];
  }
  benchmark::DoNotOptimize(sum);
}
void layout_cyclic(benchmark::State& state) {
  place_elements(state, splitc::layout::cyclic{100000}, {7});
}
BENCHMARK(layout_cyclic);
void layout_block_cyclic(benchmark::State& state) {
  place_elements(state, splitc::layout::block_cyclic{1000, 64}, {7});
}
BENCHMARK(layout_block_cyclic);
void layout_blocked_cyclic_2d(benchmark::State& state) {
  place_elements(state, splitc::layout::blocked_cyclic_2d{1024, 1024, 4, 4, 16, 16},
                 std::array<std::size_t, 2>{7, 13});
}
BENCHMARK(layout_blocked_cyclic_2d);
void layout_dims_2x2(benchmark::State& state) {
  place_elements(state, splitc::layout::dims<2, 2>{{64, 16}, {8, 8}},
                 std::array<std::size_t, 4>{3, 5, 1, 2});
}
BENCHMARK(layout_dims_2x2);

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
