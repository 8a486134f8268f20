// The mpi backend's native atomics (mpi.hpp, native_atomic_reaches): the start-up decision
// -- argv[1] says what this run expects: "mpi" (MPI_Fetch_and_op on the window) or "cpu"
// (CPU atomics and active messages); argv[2], if given, the rounds (default 200) -- and,
// whichever path, different operations from every processor on one word of the spread heap,
// its owner's among them, staying atomic with respect to each other: fetch-add,
// compare-and-swap increments and non-fetching adds on one word; fetch-xor, fetch-or and
// fetch-and of every processor's own bits on another; swaps that hand one token round on a
// third. The generic atomic_operations program covers every operation and word type on this
// path too (its network flavour, SPLITC_SAME_HOST=0).
#include "mpi_test.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace {

struct words {
  std::uint64_t count;     ///< fetch-add, compare-and-swap and add: P * rounds * 3 at the end
  std::uint64_t bits;      ///< each processor's bit set, flipped twice, cleared, set again
  std::uint64_t token;     ///< swapped: every value put in is taken out once
  std::uint32_t count32;   ///< the same counts on a 32-bit word
  std::uint32_t pad;
};

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  auto& b = mpitest::backend();
  const int me = splitc::myproc(), P = splitc::procs();
  const std::string_view expect = argc > 1 ? argv[1] : "";
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 200;
  CHECK_MSG(expect == "mpi" || expect == "cpu", "argument: mpi or cpu, not '{}'", expect);
  CHECK_MSG(rounds > 0, "rounds: a positive number, not '{}'", argc > 2 ? argv[2] : "");
  CHECK_MSG(b.native_atomics() == (expect == "mpi" && P > 1),
            "native atomics {}, expected {}", b.native_atomics(), expect);

  auto w = splitc::all_spread_malloc<words>(1);  // on processor 0
  const int owner = 0;
  words* at = w.local();  // the same address on the owner
  splitc::global_ptr<std::uint64_t> count(owner, &at->count), bits(owner, &at->bits),
      token(owner, &at->token);
  splitc::global_ptr<std::uint32_t> count32(owner, &at->count32);
  if (me == owner) std::memset(at, 0, sizeof *at);
  splitc::barrier();

  const std::uint64_t before = b.stats().native_atomics;
  const std::uint64_t mine = std::uint64_t{1} << me;
  std::uint64_t swapped_in = 0, swapped_out = 0;
  for (int i = 0; i < rounds; ++i) {
    (void)splitc::atomic_fetch_add(count, std::uint64_t{1});
    (void)splitc::atomic_fetch_add(count32, std::uint32_t{1});
    for (;;) {  // an increment by compare-and-swap, retried while others get in first
      const std::uint64_t seen = splitc::atomic_load(count);
      if (splitc::atomic_compare_swap(count, seen, seen + 1) == seen) break;
    }
    for (;;) {
      const std::uint32_t seen = splitc::atomic_load(count32);
      if (splitc::atomic_compare_swap(count32, seen, seen + 1) == seen) break;
    }
    splitc::atomic_add(count, std::uint64_t{1});
    splitc::atomic_add(count32, std::uint32_t{1});

    const std::uint64_t a = splitc::atomic_fetch_or(bits, mine);
    CHECK_MSG((a & mine) == 0, "round {}: my bit already set in {:#x}", i, a);
    const std::uint64_t x = splitc::atomic_fetch_xor(bits, mine);
    CHECK_MSG((x & mine) != 0, "round {}: my bit lost from {:#x}", i, x);
    const std::uint64_t y = splitc::atomic_fetch_xor(bits, mine);
    CHECK_MSG((y & mine) == 0, "round {}: my bit back in {:#x}", i, y);
    (void)splitc::atomic_fetch_or(bits, mine);
    const std::uint64_t z = splitc::atomic_fetch_and(bits, ~mine);
    CHECK_MSG((z & mine) != 0, "round {}: my bit missing before the and: {:#x}", i, z);

    const std::uint64_t value = (static_cast<std::uint64_t>(me) << 32) | static_cast<std::uint64_t>(i + 1);
    swapped_in += value;
    swapped_out += splitc::atomic_swap(token, value);
  }
  if (P > 1 && b.native_atomics())
    CHECK_MSG(b.stats().native_atomics > before, "no atomic took MPI's path");
  if (!b.native_atomics())
    CHECK_MSG(b.stats().native_atomics == before, "an atomic took MPI's path");

  const auto total = static_cast<std::uint64_t>(P) * static_cast<std::uint64_t>(rounds) * 3;
  splitc::barrier();
  const std::uint64_t in = splitc::reduce_to_all(swapped_in, splitc::ops::add{});
  const std::uint64_t out = splitc::reduce_to_all(swapped_out, splitc::ops::add{});
  const std::uint64_t left = splitc::atomic_load(token);
  CHECK_MSG(in == out + left, "swaps: {} in, {} out, {} left", in, out, left);
  CHECK_MSG(splitc::atomic_load(count) == total, "count {} != {}", splitc::atomic_load(count), total);
  CHECK_MSG(splitc::atomic_load(count32) == static_cast<std::uint32_t>(total), "count32 {} != {}",
            splitc::atomic_load(count32), total);
  CHECK_MSG(splitc::atomic_load(bits) == 0, "bits left: {:#x}", splitc::atomic_load(bits));
  splitc::barrier();
  splitc::all_spread_free(w);
  return mpitest::pass("mpi_atomics");
}
