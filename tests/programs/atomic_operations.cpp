// The atomic operations (splitc/atomic_operations.hpp) under contention from every processor,
// on every word type (int32, int64, uint32, uint64, float, double), on words of the spread heap
// (the layer's atomics where it has them; CPU atomics on smp and the same-host layer; active
// messages elsewhere) and of static data (CPU atomics at the owner, reached by active messages
// or directly), the owner's own atomics mixed with its peers' on the same word: fetch and
// non-fetch add, and, or, xor, min, max; swap, compare-and-swap, load and store; the
// split-phase forms completed on a counter. argv[1]: rounds per processor (default 40).
#include "harness.hpp"

#include <splitc/atomic_operations.hpp>
#include <splitc/per_processor.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace {

/// The words each test uses, 8 bytes apart: a T of any of the six types fits one.
enum word_index { w_add, w_bits, w_min, w_max, w_swap, w_cas, w_store, w_split, w_split_other, words };
struct board {
  alignas(8) unsigned char bytes[8 * words];
};

splitc::per_processor<board> static_board;

/// A processor's board, seen from everywhere: where it is and who owns it.
struct place {
  const char* what;
  int owner;
  board* at;  ///< the owner's address of its board

  template <class T>
  splitc::global_ptr<T> word(int k) const {
    return splitc::global_ptr<T>(owner, reinterpret_cast<T*>(at->bytes + 8 * k));
  }
  template <class T>
  T& mine(int k) const {  // only at the owner
    return *reinterpret_cast<T*>(at->bytes + 8 * k);
  }
};

template <class T>
constexpr bool is_float = std::is_floating_point_v<T>;

double sum_all(double v) { return splitc::reduce_to_all(v, splitc::ops::add{}); }

template <class T>
void exercise(const place& pl, int rounds, const char* type) {
  const int me = splitc::myproc(), P = splitc::procs();
  const bool owner = me == pl.owner;
  const T step = is_float<T> ? T(0.5) : T(1);
  const double total = static_cast<double>(rounds) * P;
  auto w = [&](int k) { return pl.word<T>(k); };
  if (owner) {
    for (int k = 0; k < words; ++k) pl.mine<T>(k) = T{};
    pl.mine<T>(w_min) = T(1000);
    pl.mine<T>(w_max) = std::is_signed_v<T> ? T(-1000) : T(0);
  }
  splitc::barrier();

  // add: every fetch sees a different count; the non-fetch adds are all there too.
  double fetched = 0;
  T last{};
  for (int i = 0; i < rounds; ++i) {
    const T old = splitc::atomic_fetch_add(w(w_add), step);
    CHECK_MSG(i == 0 || last < old, "{} {}: fetch_add returned {} after {}", type, pl.what,
              old, last);
    last = old;
    fetched += static_cast<double>(old) / static_cast<double>(step);
  }
  splitc::barrier();  // no add between the fetches
  for (int i = 0; i < rounds; ++i) splitc::atomic_add(w(w_add), step);
  const double all_fetched = sum_all(fetched);
  CHECK_MSG(all_fetched == total * (total - 1) / 2, "{} {}: the fetched counts add up to {}",
            type, pl.what, all_fetched);

  // min and max: the least and greatest of everyone's values, fetched values never below them.
  T least = T(1000), greatest = std::is_signed_v<T> ? T(-1000) : T(0);
  for (int i = 0; i < rounds; ++i) {
    T v = T((me * 7 + i * 13) % 97);
    if constexpr (std::is_signed_v<T>) v = T(v - 60);
    if constexpr (is_float<T>) v = T(v + 0.25);
    least = std::min(least, v);
    greatest = std::max(greatest, v);
    if (i % 2 == 0) {  // the word only moves one way: never past what was there and v
      const T before_min = splitc::atomic_fetch_min(w(w_min), v);
      CHECK(splitc::atomic_load(w(w_min)) <= std::min(before_min, v));
      const T before_max = splitc::atomic_fetch_max(w(w_max), v);
      CHECK(splitc::atomic_load(w(w_max)) >= std::max(before_max, v));
    } else {
      splitc::atomic_min(w(w_min), v);
      splitc::atomic_max(w(w_max), v);
    }
  }
  least = splitc::reduce_to_all(least, splitc::ops::min{});
  greatest = splitc::reduce_to_all(greatest, splitc::ops::max{});

  // swap: every value swapped in is taken out once, or is the one left.
  double taken = 0;
  for (int i = 0; i < rounds; ++i)
    taken += static_cast<double>(splitc::atomic_swap(w(w_swap), T(me * rounds + i + 1)));
  const double all_taken = sum_all(taken);

  // compare-and-swap: increments that retry while others get in first.
  for (int i = 0; i < rounds; ++i) {
    T seen = splitc::atomic_load(w(w_cas));
    for (;;) {
      const T found = splitc::atomic_compare_swap(w(w_cas), seen, T(seen + step));
      if (found == seen) break;
      seen = found;
    }
  }
  // A compare-and-swap that fails leaves the word and says what is there.
  splitc::atomic_store(w(w_store), T(me + 1));
  splitc::barrier();
  if (owner) {
    CHECK_MSG(pl.mine<T>(w_add) == T(2 * total * static_cast<double>(step)), "{} {}: add gave {}",
              type, pl.what, pl.mine<T>(w_add));
    CHECK_MSG(pl.mine<T>(w_min) == least, "{} {}: min gave {}, not {}", type, pl.what,
              pl.mine<T>(w_min), least);
    CHECK_MSG(pl.mine<T>(w_max) == greatest, "{} {}: max gave {}, not {}", type, pl.what,
              pl.mine<T>(w_max), greatest);
    CHECK_MSG(all_taken + static_cast<double>(pl.mine<T>(w_swap)) == total * (total + 1) / 2,
              "{} {}: swapped out {} and left {}", type, pl.what, all_taken, pl.mine<T>(w_swap));
    CHECK_MSG(pl.mine<T>(w_cas) == T(total * static_cast<double>(step)),
              "{} {}: compare-and-swap counted {}", type, pl.what, pl.mine<T>(w_cas));
  }
  const T stored = splitc::atomic_load(w(w_store));
  CHECK_MSG(stored >= T(1) && stored <= T(P), "{} {}: load found {}", type, pl.what, stored);
  CHECK(splitc::atomic_compare_swap(w(w_store), T(P + 5), T(0)) == stored);
  splitc::barrier();  // everyone has loaded the stored word

  // and, or, xor: every processor's own bit.
  if constexpr (!is_float<T>) {
    const T bit = T(T(1) << me), all = T((T(1) << P) - 1);
    CHECK((splitc::atomic_fetch_or(w(w_bits), bit) & bit) == 0);
    splitc::barrier();
    if (owner) CHECK_MSG(pl.mine<T>(w_bits) == all, "{} {}: or gave {:#x}", type, pl.what, pl.mine<T>(w_bits));
    splitc::barrier();
    if (me % 2 == 0)
      splitc::atomic_and(w(w_bits), T(~bit));
    else
      CHECK((splitc::atomic_fetch_xor(w(w_bits), bit) & bit) != 0);
    splitc::barrier();
    if (owner) CHECK_MSG(pl.mine<T>(w_bits) == 0, "{} {}: and/xor left {:#x}", type, pl.what, pl.mine<T>(w_bits));
    splitc::barrier();
    splitc::atomic_xor(w(w_bits), bit);
    splitc::atomic_or(w(w_bits), bit);
    CHECK((splitc::atomic_fetch_and(w(w_bits), T(~bit)) & bit) != 0);
    splitc::barrier();
    if (owner) CHECK_MSG(pl.mine<T>(w_bits) == 0, "{} {}: xor/or/and left {:#x}", type, pl.what, pl.mine<T>(w_bits));
  }

  // Split-phase: many in flight on one counter, the fetched values delivered at sync.
  std::vector<T> results(static_cast<std::size_t>(rounds));
  splitc::counter done;
  for (int i = 0; i < rounds; ++i)
    splitc::atomic_fetch_add_async(done, &results[static_cast<std::size_t>(i)], w(w_split), step);
  splitc::atomic_add_async(done, w(w_split_other), T(3 * step));
  splitc::sync(done);
  std::sort(results.begin(), results.end());
  double split_fetched = 0;
  for (int i = 0; i < rounds; ++i) {
    CHECK_MSG(i == 0 || results[static_cast<std::size_t>(i - 1)] < results[static_cast<std::size_t>(i)],
              "{} {}: two split-phase fetch_adds returned {}", type, pl.what,
              results[static_cast<std::size_t>(i)]);
    split_fetched += static_cast<double>(results[static_cast<std::size_t>(i)]) / static_cast<double>(step);
  }
  CHECK(sum_all(split_fetched) == total * (total - 1) / 2);
  T loaded{}, swapped{}, compared{};
  splitc::atomic_load_async(done, &loaded, w(w_split_other));
  splitc::sync(done);
  CHECK_MSG(loaded == T(3 * step * P), "{} {}: split-phase add/load found {}", type, pl.what, loaded);
  splitc::barrier();  // everyone has loaded
  splitc::atomic_swap_async(done, &swapped, w(w_split_other), T(me + 1));
  splitc::sync(done);
  splitc::barrier();
  splitc::atomic_compare_swap_async(done, &compared, w(w_split_other), T(-7), T(0));
  splitc::atomic_store_async(done, w(w_store), T(me + 1));
  splitc::sync(done);
  CHECK(compared >= T(1) && compared <= T(P));
  const double all_swapped = sum_all(static_cast<double>(swapped)) + static_cast<double>(compared);
  CHECK_MSG(all_swapped == 3.0 * static_cast<double>(step) * P + P * (P + 1) / 2.0,
            "{} {}: split-phase swaps took out {}", type, pl.what, all_swapped);
  splitc::barrier();
}

template <class T>
void every_place(const std::vector<place>& places, int rounds, const char* type) {
  for (const place& pl : places) exercise<T>(pl, rounds, type);
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int me = splitc::myproc(), P = splitc::procs();
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 40;
  CHECK(rounds > 0 && P <= 31);
  auto boards = splitc::all_spread_malloc<board>(static_cast<std::size_t>(P));
  const std::vector<board*> statics = harness::exchange(&*static_board);
  const std::vector<place> places = {
      {"heap of processor 0", 0, boards.local()},
      {"heap of the last processor", P - 1, boards.local()},
      {"static data of processor P/2", P / 2, statics[static_cast<std::size_t>(P / 2)]},
  };
  (void)me;
  every_place<std::int32_t>(places, rounds, "int32");
  every_place<std::int64_t>(places, rounds, "int64");
  every_place<std::uint32_t>(places, rounds, "uint32");
  every_place<std::uint64_t>(places, rounds, "uint64");
  every_place<float>(places, rounds, "float");
  every_place<double>(places, rounds, "double");
  splitc::all_spread_free(boards);
  return harness::pass("atomic_operations");
}
