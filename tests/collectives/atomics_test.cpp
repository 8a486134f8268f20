// Atomic operations (fetch_and_add, exchange, cmp_and_swap, test_and_set on
// 32- and 64-bit integers) on spread-heap, static and stack targets, local
// and remote; and atomic procedures: functions and capture-less lambdas,
// several argument types, small and large results, blocking and split-phase.
#include "harness.hpp"

#include <algorithm>
#include <array>
#include <iterator>
#include <vector>
#include <cstdint>
#include <cstdlib>

namespace {

// Static data: the same address everywhere (the launcher turns ASLR off), except where processors
// share one process (harness.hpp): global pointers use the addresses the owners broadcast.
splitc::per_processor<long long> static_total;
splitc::per_processor<int> static_lock;

long long add_to(long long* target, int amount, short times) {
  *target += static_cast<long long>(amount) * times;
  return *target;
}

struct summary {
  double values[12];  // larger than a short reply: travels in a medium one
};
summary describe(long long* target, double scale) {
  summary s{};
  for (int i = 0; i < 12; ++i) s.values[i] = static_cast<double>(*target) * scale + i;
  return s;
}

void bump(long long* target) { *target += 1; }

template <class T>
void counting(splitc::global_ptr<T> target, int rounds) {
  for (int i = 0; i < rounds; ++i) splitc::fetch_and_add(target, T{1});
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int me = splitc::myproc(), P = splitc::procs();
  // argv[1]: operations per processor on each contended target (default 200).
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 200;
  CHECK(rounds > 0);

  // fetch_and_add on processor 0's spread heap (CPU atomics on smp), static data and stack (AM).
  splitc::spread_ptr<std::int64_t> heap64 = splitc::all_spread_malloc<std::int64_t>(static_cast<std::size_t>(P));
  splitc::spread_ptr<std::int32_t> heap32 = splitc::all_spread_malloc<std::int32_t>(static_cast<std::size_t>(P));
  long long on_stack = 0;
  std::vector<long long*> stacks(static_cast<std::size_t>(P));
  std::vector<long long*> totals(static_cast<std::size_t>(P));
  std::vector<int*> locks(static_cast<std::size_t>(P));
  for (int q = 0; q < P; ++q) {
    stacks[static_cast<std::size_t>(q)] = splitc::broadcast(&on_stack, q);
    totals[static_cast<std::size_t>(q)] = splitc::broadcast(&*static_total, q);
    locks[static_cast<std::size_t>(q)] = splitc::broadcast(&*static_lock, q);
  }
  const auto total_on = [&](int q) { return splitc::toglobal(q, totals[static_cast<std::size_t>(q)]); };
  if (me == 0) {
    *heap64.local() = 0;
    *heap32.local() = 0;
    *static_total = 0;
  }
  splitc::barrier();
  counting(splitc::global_ptr<std::int64_t>(heap64), rounds);
  counting(splitc::global_ptr<std::int32_t>(heap32), rounds);
  counting(total_on(0), rounds);
  counting(splitc::toglobal(0, stacks[0]), rounds);
  splitc::barrier();
  if (me == 0) {
    CHECK(*heap64.local() == rounds * P);
    CHECK(*heap32.local() == rounds * P);
    CHECK(*static_total == rounds * P);
    CHECK(on_stack == rounds * P);
  }
  splitc::barrier();

  // test_and_set as a lock around a non-atomic read-modify-write on processor 0.
  const auto lock = splitc::toglobal(0, locks[0]);
  for (int i = 0; i < 50; ++i) {
    while (splitc::test_and_set(lock) != 0) splitc::poll();
    splitc::write(splitc::toglobal(0, stacks[0]), splitc::read(splitc::toglobal(0, stacks[0])) + 1);
    CHECK(splitc::exchange(lock, 0) == 1);
  }
  splitc::barrier();
  if (me == 0) CHECK(on_stack == rounds * P + 50 * P);
  splitc::barrier();

  // cmp_and_swap: exactly one processor wins each round.
  if (me == 0) *static_total = 0;
  splitc::barrier();
  int wins = 0;
  for (int round = 1; round <= 20; ++round) {
    const long long expected = (round - 1) * 1000;
    if (splitc::cmp_and_swap(total_on(0), expected, round * 1000LL) == expected) ++wins;
    splitc::barrier();
    if (me == 0 && round == 1) CHECK(*static_total == 1000);
    if (me == 0) *static_total = round * 1000LL;
    splitc::barrier();
  }
  CHECK(splitc::reduce_to_all(wins, splitc::ops::add{}) == 20);
  if (me == 0) *static_total = 0;
  splitc::barrier();

  // Atomic procedures.
  for (int i = 0; i < rounds; ++i) splitc::atomic(add_to, total_on(0), 2, short{3});
  splitc::barrier();
  if (me == 0) CHECK(*static_total == 6LL * rounds * P);
  splitc::barrier();
  const long long seen = splitc::atomic([](long long* t, long long plus) { return *t + plus; },
                                        total_on(0), 5LL);
  CHECK(seen == 6LL * rounds * P + 5);
  const summary s = splitc::atomic(describe, total_on(0), 0.5);
  for (int i = 0; i < 12; ++i) CHECK(s.values[i] == static_cast<double>(6LL * rounds * P) * 0.5 + i);
  const int small = splitc::atomic([](long long*, int x) { return x * 2; }, total_on(0), 21);
  CHECK(small == 42);
  std::array<char, 3> three{};
  three = splitc::atomic([](long long*, char a) { return std::array<char, 3>{a, a, a}; },
                         total_on(0), 'q');
  CHECK(three[0] == 'q' && three[2] == 'q');
  splitc::barrier();
  // Split-phase with a counter. Each processor's 10 increments are the only changes to its
  // right neighbour's static_total until the barrier, and each applies exactly once, but in
  // no promised order (udp delivers them in arrival order): the results, sorted, are the ten
  // successive values above the target's starting value, whatever order they came in.
  splitc::counter done;
  long long results[10];
  const int right = (me + 1) % P;
  const long long base = right == 0 ? 6LL * rounds * P : 0;
  for (int i = 0; i < 10; ++i)
    splitc::atomic_async(done, &results[i], add_to, total_on(right), 1, short{1});
  splitc::sync(done);
  std::sort(std::begin(results), std::end(results));
  for (int i = 0; i < 10; ++i) CHECK(results[i] == base + i + 1);
  splitc::barrier();
  splitc::atomic(bump, total_on(0));
  splitc::barrier();
  // Processor 0 got 6*rounds from each processor, 10 from its left neighbour, 1 from each.
  if (me == 0) CHECK(*static_total == 6LL * rounds * P + 10 + P);

  splitc::all_spread_free(heap32);
  splitc::all_spread_free(heap64);
  splitc::barrier();
  return harness::pass("atomics");
}
