// The C++ reference for tests/splitcc/programs/radix.sc (test splitcc.compare.radix.*): the
// same keys (`keys` per processor from key_of(processor, i), key_bits bits) sorted by the
// same LSD radix sort, radix_bits per pass, on splitc's C++ API: the keys in two blocked
// spread arrays `unsigned K[PROCS]::[keys]` used in turn, a pass's digit histogram turned
// into each key's place by a vector scan over processors and the totals broadcast from the
// last, each key sent to its place with a store and store_sync(this processor's keys).
// Processor 0 prints the same "result" lines as the Split-C program: per processor, its
// sorted keys' count, sum, xor and hash.
#include "digest.hpp"

#include <splitc/splitc.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <vector>

namespace {

constexpr std::size_t keys = 500;
constexpr int radix_bits = 6, key_bits = 18;
constexpr std::size_t radix = std::size_t{1} << radix_bits;

std::uint32_t key_of(int proc, std::size_t i) {
  const std::uint32_t x = static_cast<std::uint32_t>(proc * 7919 + static_cast<int>(i)) * 2654435761u;
  return (x >> 7) & ((1u << key_bits) - 1);
}
std::size_t digit(std::uint32_t key, int shift) { return (key >> shift) & (radix - 1); }

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  {
    splitc::block_cyclic_array<std::uint32_t> K[2] = {splitc::make_blocked<std::uint32_t>(keys),
                                                       splitc::make_blocked<std::uint32_t>(keys)};
    const int me = splitc::myproc(), procs = splitc::procs();
    for (std::size_t i = 0; i < keys; ++i) K[0].my_storage()[i] = key_of(me, i);
    splitc::barrier();

    int from = 0;
    for (int shift = 0; shift < key_bits; shift += radix_bits, from = 1 - from) {
      const auto src = K[from].my_storage();
      std::vector<std::uint64_t> count(radix, 0), before(radix), total(radix);
      for (std::uint32_t k : src) ++count[digit(k, shift)];
      // Keys of digit d go after every smaller digit's, and after the keys of digit d on
      // lower processors. The broadcast also keeps this pass's stores out of arrays that a
      // slower processor still reads: the last processor's scan waits for everybody's.
      before = count;
      splitc::scan(std::span<std::uint64_t>(before), splitc::ops::add{});  // inclusive
      total = before;
      splitc::broadcast(std::span<std::uint64_t>(total), procs - 1);
      std::uint64_t smaller = 0;
      for (std::size_t d = 0; d < radix; ++d) {
        before[d] = smaller + before[d] - count[d];
        smaller += total[d];
      }
      for (std::uint32_t k : src) splitc::store(K[1 - from].gptr(before[digit(k, shift)]++), k);
      splitc::store_sync(static_cast<std::int64_t>(keys * sizeof(std::uint32_t)));
    }

    reference::print_keys("radix", reference::digest_keys(K[from].my_storage()));
  }  // the spread arrays are freed (collectively) before finalize
  splitc::finalize();
  return 0;
}
