// Waiting on memory (splitc/memory_wait.hpp): waits satisfied by puts (data written and
// completed before the flag is seen whole), by stores, by atomics from every processor, and
// by writes into arrays watched with the all / any / some forms (status words leaving some
// out, the vector forms), every comparison, test before and after; the waiting processor
// serves the others' reads meanwhile (they read from it before they signal it).
#include "harness.hpp"

#include <splitc/memory_wait.hpp>

#include <cstdint>
#include <vector>

namespace {

using splitc::cmp;

constexpr int data_words = 512;

/// Each processor's part of the spread heap: a flag per sender (64- and 32-bit), a counter,
/// a block of data written by its left neighbour.
struct board {
  std::uint64_t flag64[64];
  std::int32_t flag32[64];
  std::int64_t counter;
  std::int64_t data[data_words];
  std::int64_t readable;  ///< read by the others before they signal processor 0
};

board* my_board(splitc::spread_ptr<board> b) { return b.local(); }

std::int64_t datum(int from, int round, int i) { return from * 1000003 + round * 7919 + i; }

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int me = splitc::myproc(), P = splitc::procs();
  CHECK(P <= 64);
  auto boards = splitc::all_spread_malloc<board>(static_cast<std::size_t>(P));
  board* mine = my_board(boards);
  *mine = board{};
  mine->readable = 4242;
  splitc::barrier();
  const int right = (me + 1) % P, left = (me + P - 1) % P;

  // 1. Puts: data completed (bulk_write), then the flag (write); the receiver sees the data.
  for (int round = 1; round <= 3; ++round) {
    std::vector<std::int64_t> block(data_words);
    for (int i = 0; i < data_words; ++i) block[i] = datum(me, round, i);
    CHECK(!splitc::test(&mine->flag64[left], cmp::gt, std::uint64_t(round)));
    splitc::bulk_write(splitc::global_ptr<void>(right, &mine->data[0]), block.data(),
                       sizeof(std::int64_t) * data_words);
    splitc::write(splitc::global_ptr<std::uint64_t>(right, &mine->flag64[me]), std::uint64_t(round));
    splitc::wait_until(&mine->flag64[left], cmp::eq, std::uint64_t(round));
    CHECK(splitc::test(&mine->flag64[left], cmp::ge, std::uint64_t(round)));
    for (int i = 0; i < data_words; ++i)
      CHECK_MSG(mine->data[i] == datum(left, round, i), "round {} word {}", round, i);
    splitc::barrier();  // the data block is written again next round
  }

  // 2. Stores into every processor's 32-bit flags, counting down (lt, le, ne).
  for (int round = 1; round <= 2; ++round) {
    const std::int32_t v = -10 * round;
    for (int q = 0; q < P; ++q)
      splitc::store(splitc::global_ptr<std::int32_t>(q, &mine->flag32[me]), v);
    std::vector<std::int32_t> values(static_cast<std::size_t>(P), v);
    splitc::wait_until_all(std::span<std::int32_t>(mine->flag32, static_cast<std::size_t>(P)),
                           cmp::le, v);
    CHECK(splitc::test_all(std::span<std::int32_t>(mine->flag32, static_cast<std::size_t>(P)),
                           cmp::lt, v + 1));
    CHECK(splitc::test_all_vector(std::span<std::int32_t>(mine->flag32, static_cast<std::size_t>(P)),
                                  cmp::eq, std::span<const std::int32_t>(values)));
    splitc::wait_until(&mine->flag32[left], cmp::ne, std::int32_t{0});
    splitc::store_sync(static_cast<std::int64_t>(sizeof(std::int32_t)) * P);
    splitc::barrier();
  }

  // 3. Atomics: every processor adds to processor 0's counter; processor 0 waits (gt, ge).
  for (int round = 1; round <= 3; ++round) {
    (void)splitc::fetch_and_add(splitc::global_ptr<std::int64_t>(0, &mine->counter), std::int64_t{1});
    if (me == 0) {
      splitc::wait_until(&mine->counter, cmp::gt, std::int64_t{P} * round - 1);
      CHECK(splitc::test(&mine->counter, cmp::ge, std::int64_t{P} * round));
      CHECK(!splitc::test(&mine->counter, cmp::gt, std::int64_t{P} * round));
    }
    splitc::barrier();
  }

  // 4. Arrays: each processor q > 0 reads processor 0's word (served while 0 waits), then
  // writes its flag there; processor 0 collects them with some / any, leaving out what it
  // has seen, and checks each arrives once.
  {
    auto flags = std::span<std::uint64_t>(mine->flag64, static_cast<std::size_t>(P));
    if (me == 0) {
      for (auto& f : flags) f = 0;
    }
    splitc::barrier();
    if (me != 0) {
      CHECK(splitc::read(splitc::global_ptr<std::int64_t>(0, &mine->readable)) == 4242);
      splitc::write(splitc::global_ptr<std::uint64_t>(0, &mine->flag64[me]), std::uint64_t(100 + me));
    } else {
      std::vector<int> status(static_cast<std::size_t>(P), 0);
      status[0] = 1;  // nobody writes processor 0's own flag
      std::vector<std::size_t> indices(static_cast<std::size_t>(P));
      int seen = 0;
      bool use_any = false;
      while (seen < P - 1) {
        if (use_any) {
          const std::size_t i = splitc::wait_until_any(flags, cmp::ge, std::uint64_t{100},
                                                       std::span<const int>(status));
          CHECK(i != splitc::no_index && status[i] == 0 && flags[i] == 100 + i);
          status[i] = 1;
          ++seen;
        } else {
          const std::size_t n = splitc::wait_until_some(flags, std::span<std::size_t>(indices),
                                                        cmp::ge, std::uint64_t{100},
                                                        std::span<const int>(status));
          CHECK(n >= 1);
          for (std::size_t k = 0; k < n; ++k) {
            CHECK(status[indices[k]] == 0 && flags[indices[k]] == 100 + indices[k]);
            if (k > 0) CHECK(indices[k] > indices[k - 1]);
            status[indices[k]] = 1;
            ++seen;
          }
        }
        use_any = !use_any;
      }
      // Every word left out: any and some return at once.
      CHECK(splitc::wait_until_any(flags, cmp::eq, std::uint64_t{0}, std::span<const int>(status)) ==
            splitc::no_index);
      CHECK(splitc::wait_until_some(flags, std::span<std::size_t>(indices), cmp::eq,
                                    std::uint64_t{0}, std::span<const int>(status)) == 0);
      // The vector forms: each word against its own value.
      std::vector<std::uint64_t> expect(static_cast<std::size_t>(P));
      for (int q = 0; q < P; ++q) expect[static_cast<std::size_t>(q)] = q == 0 ? 0 : 100 + q;
      splitc::wait_until_all_vector(flags, cmp::eq, std::span<const std::uint64_t>(expect));
      CHECK(splitc::wait_until_any_vector(flags, cmp::eq, std::span<const std::uint64_t>(expect)) == 0);
      CHECK(splitc::wait_until_some_vector(flags, std::span<std::size_t>(indices), cmp::eq,
                                           std::span<const std::uint64_t>(expect)) ==
            static_cast<std::size_t>(P));
      CHECK(splitc::test_any(flags, cmp::gt, static_cast<std::uint64_t>(100 + P)) == splitc::no_index);
      CHECK(splitc::test_any_vector(flags, cmp::ne, std::span<const std::uint64_t>(expect)) ==
            splitc::no_index);
      CHECK(splitc::test_some(flags, std::span<std::size_t>(indices), cmp::lt, std::uint64_t{100}) == 1);
      CHECK(indices[0] == 0);
      CHECK(splitc::test_some_vector(flags, std::span<std::size_t>(indices), cmp::eq,
                                     std::span<const std::uint64_t>(expect)) ==
            static_cast<std::size_t>(P));
    }
    splitc::barrier();
  }
  splitc::all_spread_free(boards);
  return harness::pass("memory_wait");
}
