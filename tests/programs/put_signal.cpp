// Signalled puts (splitc/put_signal.hpp): the receiver waits on the signal word alone
// (wait_until) and then finds the data whole -- blocking and split-phase, set and add, from
// one neighbour and from every processor into one word, many in flight on one counter, a put
// of several long-message pieces, and a put of no bytes.
#include "harness.hpp"

#include <splitc/memory_wait.hpp>
#include <splitc/put_signal.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

using splitc::cmp;
using splitc::signal_op;

constexpr int block_words = 512, slot_words = 64, pieces_in_flight = 16;

/// Each processor's part of the spread heap.
struct board {
  std::uint64_t from_left;   ///< set by the left neighbour
  std::uint64_t arrivals;    ///< added to by every processor (processor 0's)
  std::uint64_t in_flight;   ///< added to by the left neighbour's many puts
  std::uint64_t big_signal;  ///< the several-piece put's
  std::uint64_t empty;       ///< the put of no bytes
  std::int64_t block[block_words];
  std::int64_t slots[32][slot_words];
};

std::int64_t datum(int from, int round, int i) { return from * 1000003LL + round * 7919LL + i; }

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int me = splitc::myproc(), P = splitc::procs();
  CHECK(P <= 32);
  auto boards = splitc::all_spread_malloc<board>(static_cast<std::size_t>(P));
  board* mine = boards.local();  // the same address on every processor
  *mine = board{};
  const int right = (me + 1) % P, left = (me + P - 1) % P;
  auto at = [](int q, auto* field) { return splitc::toglobal(q, field); };
  // Several long-message pieces (on the backends that carry it by messages).
  const std::size_t big = std::min<std::size_t>(2 * splitc::am_long_piece + 777, std::size_t{8} << 20);
  auto big_array = splitc::all_spread_malloc(static_cast<std::size_t>(P), big);
  auto* big_area = static_cast<unsigned char*>(big_array.local());  // the same address everywhere
  splitc::barrier();

  // 1. From the left neighbour, set: blocking in odd rounds, split-phase in even ones.
  for (int round = 1; round <= 4; ++round) {
    std::vector<std::int64_t> block(block_words);
    for (int i = 0; i < block_words; ++i) block[static_cast<std::size_t>(i)] = datum(me, round, i);
    const auto dst = splitc::global_ptr<void>(right, mine->block);
    if (round % 2 == 1) {
      splitc::put_signal(dst, block.data(), sizeof(std::int64_t) * block_words,
                         at(right, &mine->from_left), std::uint64_t(round), signal_op::set);
    } else {
      splitc::counter done;
      splitc::put_signal_async(done, dst, block.data(), sizeof(std::int64_t) * block_words,
                               at(right, &mine->from_left), std::uint64_t(round), signal_op::set);
      block.assign(block.size(), -1);  // the source may be reused once the call returns
      splitc::sync(done);
    }
    splitc::wait_until(&mine->from_left, cmp::eq, std::uint64_t(round));
    for (int i = 0; i < block_words; ++i)
      CHECK_MSG(mine->block[i] == datum(left, round, i), "round {} word {}: {}", round, i, mine->block[i]);
    splitc::barrier();  // the block is written again next round
  }

  // 2. From everyone into processor 0, add: processor 0 waits for the count alone.
  for (int round = 1; round <= 2; ++round) {
    std::vector<std::int64_t> slot(slot_words);
    for (int i = 0; i < slot_words; ++i) slot[static_cast<std::size_t>(i)] = datum(me, round, i);
    splitc::counter done;
    splitc::put_signal_async(done, splitc::global_ptr<void>(0, mine->slots[me]), slot.data(),
                             sizeof(std::int64_t) * slot_words, at(0, &mine->arrivals),
                             std::uint64_t{1}, signal_op::add);
    if (me == 0) {
      splitc::wait_until(&mine->arrivals, cmp::ge, std::uint64_t(P * round));
      CHECK(mine->arrivals == std::uint64_t(P * round));
      for (int q = 0; q < P; ++q)
        for (int i = 0; i < slot_words; ++i)
          CHECK_MSG(mine->slots[q][i] == datum(q, round, i), "from {} word {}", q, i);
    }
    splitc::sync(done);
    splitc::barrier();
  }

  // 3. Many in flight on one counter, each a slice of the block, each adding 1.
  {
    std::vector<std::int64_t> block(block_words);
    for (int i = 0; i < block_words; ++i) block[static_cast<std::size_t>(i)] = datum(me, 9, i);
    constexpr int slice = block_words / pieces_in_flight;
    splitc::counter done;
    for (int k = 0; k < pieces_in_flight; ++k)
      splitc::put_signal_async(done, splitc::global_ptr<void>(right, mine->block + k * slice),
                               block.data() + k * slice, sizeof(std::int64_t) * slice,
                               at(right, &mine->in_flight), std::uint64_t{1}, signal_op::add);
    splitc::wait_until(&mine->in_flight, cmp::eq, std::uint64_t{pieces_in_flight});
    for (int i = 0; i < block_words; ++i) CHECK_MSG(mine->block[i] == datum(left, 9, i), "word {}", i);
    splitc::sync(done);
    splitc::barrier();
  }

  // 4. A put of several pieces, and one of no bytes.
  {
    std::vector<unsigned char> bytes(big);
    for (std::size_t i = 0; i < big; ++i) bytes[i] = static_cast<unsigned char>(i * 7 + me);
    splitc::counter done;
    splitc::put_signal_async(done, splitc::global_ptr<void>(right, big_area), bytes.data(), big,
                             at(right, &mine->big_signal), std::uint64_t{77}, signal_op::set);
    splitc::put_signal(splitc::global_ptr<void>(right, big_area), bytes.data(), 0,
                       at(right, &mine->empty), std::uint64_t{5}, signal_op::add);
    splitc::wait_until(&mine->big_signal, cmp::eq, std::uint64_t{77});
    for (std::size_t i = 0; i < big; ++i)
      CHECK_MSG(big_area[i] == static_cast<unsigned char>(i * 7 + left), "byte {} of {}", i, big);
    splitc::wait_until(&mine->empty, cmp::eq, std::uint64_t{5});
    splitc::sync(done);
  }
  splitc::barrier();
  splitc::all_spread_free(big_array);
  splitc::all_spread_free(boards);
  return harness::pass("put_signal");
}
