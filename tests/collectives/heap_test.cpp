// The global heap: all_spread_malloc / all_spread_free (cyclic layout, same
// address everywhere, space reused), one-sided spread_malloc / spread_free
// from every processor at once (usable by all as soon as it returns),
// global_malloc in one's own segment reached by others, and exhaustion
// returning null.
#include "harness.hpp"

#include <vector>

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int me = splitc::myproc(), P = splitc::procs();

  // Collective allocation: element i on processor i mod P, at row i div P.
  const std::size_t n = 10 * static_cast<std::size_t>(P) + 3;
  splitc::spread_ptr<long> a = splitc::all_spread_malloc<long>(n);
  CHECK(a != nullptr && a.proc() == 0);
  // The same place everywhere (the same address, or on sim the same offset: local_copy).
  CHECK(splitc::local_copy(splitc::broadcast(a.local(), 0)) == a.local());
  for (std::size_t i = static_cast<std::size_t>(me); i < n; i += static_cast<std::size_t>(P))
    a.local()[i / static_cast<std::size_t>(P)] = static_cast<long>(i * 7);
  splitc::barrier();
  for (std::size_t i = 0; i < n; ++i) {
    const splitc::spread_ptr<long> e = a + static_cast<std::ptrdiff_t>(i);
    CHECK(e.proc() == static_cast<int>(i % static_cast<std::size_t>(P)));
    CHECK(splitc::read(splitc::global_ptr<long>(e)) == static_cast<long>(i * 7));
  }
  splitc::all_spread_free(a);
  // Freed space is reused.
  splitc::spread_ptr<long> again = splitc::all_spread_malloc<long>(n);
  CHECK(again.local() == a.local());
  splitc::all_spread_free(again);

  // One-sided: every processor allocates alone, at the same time; others use it at once.
  splitc::spread_ptr<int> mine = splitc::spread_malloc<int>(static_cast<std::size_t>(P));
  CHECK(mine != nullptr);
  // Publish it; each processor writes its element of everyone's allocation.
  std::vector<splitc::spread_ptr<int>> all(static_cast<std::size_t>(P));
  for (int q = 0; q < P; ++q) all[static_cast<std::size_t>(q)] = splitc::broadcast(mine, q);
  for (int q = 0; q < P; ++q)
    for (int r = 0; r < q; ++r)
      CHECK(all[static_cast<std::size_t>(q)].local() != all[static_cast<std::size_t>(r)].local());
  for (int q = 0; q < P; ++q)
    splitc::write(splitc::global_ptr<int>(all[static_cast<std::size_t>(q)] + me), q * 100 + me);
  splitc::barrier();
  for (int r = 0; r < P; ++r) CHECK(splitc::read(splitc::global_ptr<int>(mine + r)) == me * 100 + r);
  splitc::barrier();
  splitc::spread_free(mine);

  // global_malloc: my own segment, reached directly by the others.
  splitc::global_ptr<void> block = splitc::global_malloc(4096);
  CHECK(block != nullptr && block.proc() == me);
  auto* ints = static_cast<int*>(block.local());
  ints[0] = me;
  std::vector<splitc::global_ptr<int>> blocks(static_cast<std::size_t>(P));
  for (int q = 0; q < P; ++q)
    blocks[static_cast<std::size_t>(q)] = splitc::broadcast(splitc::global_pointer_cast<int>(block), q);
  splitc::barrier();
  for (int q = 0; q < P; ++q) CHECK(splitc::read(blocks[static_cast<std::size_t>(q)]) == q);
  splitc::barrier();
  splitc::global_free(block);

  // Exhaustion: null, never corruption; the heap still works afterwards.
  const splitc::heap_usage before = splitc::heap_statistics();
  const std::size_t too_many = before.private_capacity + 1;
  CHECK(splitc::global_malloc(too_many) == nullptr);
  CHECK(splitc::all_spread_malloc(static_cast<std::size_t>(P), std::size_t{1} << 40) == nullptr);
  if (me == 0) CHECK(splitc::spread_malloc(static_cast<std::size_t>(P), std::size_t{1} << 40) == nullptr);
  splitc::spread_ptr<char> ok = splitc::all_spread_malloc<char>(static_cast<std::size_t>(P) * 1000);
  CHECK(ok != nullptr);
  splitc::all_spread_free(ok);
  if (me == 0) CHECK(splitc::heap_statistics().symmetric_in_use == before.symmetric_in_use);

  splitc::barrier();
  return harness::pass("heap");
}
