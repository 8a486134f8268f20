// store_sync semantics (seed 003 §5.2): store_sync(k), all_store_sync, explicit counters,
// reset_store_sync between phases and with stores in flight.
#include "harness.hpp"
#include "value_types.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

namespace {

using testvals::check_pattern;
using testvals::fill_pattern;

constexpr int kMaxProcs = 8;
constexpr std::size_t kInts = 300;      // stored one int at a time
constexpr std::size_t kBulk = 70001;    // one bulk_store into the spread heap
constexpr std::size_t kBulkMem = 50003; // one bulk_store into malloc memory, unaligned
constexpr std::size_t kAllToAll = 2048; // per source in the all-to-all phases
constexpr std::size_t kArea = 256 * 1024;
// Bytes the right neighbour receives in one neighbour phase.
constexpr std::int64_t kNeighbourBytes = kInts * sizeof(int) + kBulk + kBulkMem;

// Explicit counters: the receive counter at the same address everywhere (in static data, or in
// the segment where processors share one process: harness.hpp).
harness::static_counter g_static_received{4 * kArea + 64};
splitc::per_processor<splitc::counter> g_sent_a, g_sent_b;

struct areas {
  unsigned char* heap;  // in the spread heap (same address everywhere)
  std::vector<unsigned char*> mem;  // malloc memory of every processor
};

std::uint64_t seed(int phase, int round, int from, int part) {
  return ((static_cast<std::uint64_t>(phase) * 16 + round) * 16 + from) * 8 + part;
}

int int_value(std::uint64_t s, std::size_t i) { return static_cast<int>(testvals::mix(s + i)); }

/// Everything a neighbour phase sends to processor `to`: ints alternating between heap and
/// malloc memory, then one bulk store into each. With `rc`/`sc` the explicit counters.
void send_neighbour(const areas& a, int to, std::uint64_t s, std::size_t offset,
                    splitc::counter* rc = nullptr, splitc::counter* sc = nullptr) {
  auto* heap_ints = reinterpret_cast<int*>(a.heap + offset);
  auto* mem_ints = reinterpret_cast<int*>(a.mem[to] + offset);
  for (std::size_t i = 0; i < kInts; ++i) {
    auto g = splitc::toglobal(to, (i % 2 == 0 ? heap_ints : mem_ints) + i);
    if (rc != nullptr)
      splitc::store(g, int_value(s, i), *rc, *sc);
    else
      splitc::store(g, int_value(s, i));
  }
  std::vector<unsigned char> src(kBulk + kBulkMem + 8);
  fill_pattern(src.data(), kBulk, s + 1);
  fill_pattern(src.data() + kBulk + 3, kBulkMem, s + 2);
  const auto heap_dst = splitc::toglobal<void>(to, a.heap + offset + kInts * sizeof(int));
  const auto mem_dst = splitc::toglobal<void>(to, a.mem[to] + offset + kInts * sizeof(int) + 1);
  if (rc != nullptr) {
    splitc::bulk_store(heap_dst, src.data(), kBulk, *rc, *sc);
    splitc::bulk_store(mem_dst, src.data() + kBulk + 3, kBulkMem, *rc, *sc);
  } else {
    splitc::bulk_store(heap_dst, src.data(), kBulk);
    splitc::bulk_store(mem_dst, src.data() + kBulk + 3, kBulkMem);
  }
}

void check_neighbour(const areas& a, std::uint64_t s, std::size_t offset, const char* what) {
  const int me = splitc::myproc();
  auto* heap_ints = reinterpret_cast<int*>(a.heap + offset);
  auto* mem_ints = reinterpret_cast<int*>(a.mem[me] + offset);
  for (std::size_t i = 0; i < kInts; ++i) {
    const int got = (i % 2 == 0 ? heap_ints : mem_ints)[i];
    CHECK_MSG(got == int_value(s, i), "{}: int {} is {}, expected {}", what, i, got, int_value(s, i));
  }
  const std::size_t h = check_pattern(a.heap + offset + kInts * sizeof(int), kBulk, s + 1);
  CHECK_MSG(h == kBulk, "{}: bulk store into the spread heap wrong from byte {}", what, h);
  const std::size_t m = check_pattern(a.mem[me] + offset + kInts * sizeof(int) + 1, kBulkMem, s + 2);
  CHECK_MSG(m == kBulkMem, "{}: bulk store into malloc memory wrong from byte {}", what, m);
}

/// Every processor stores `kAllToAll - 13*from` bytes (sizes unknown to the receivers) into
/// its own slot of every processor's area at `offset`, alternating heap and malloc memory.
void send_all_to_all(const areas& a, std::uint64_t s, std::size_t offset) {
  const int me = splitc::myproc(), P = splitc::procs();
  const std::size_t len = kAllToAll - 13 * static_cast<std::size_t>(me);
  std::vector<unsigned char> src(len);
  fill_pattern(src.data(), len, s + me);
  for (int k = 1; k <= P; ++k) {
    const int q = (me + k) % P;
    unsigned char* base = (q % 2 == 0) ? a.heap : a.mem[q];
    // Also as single chars for the first bytes, to mix small and bulk stores.
    splitc::bulk_store(splitc::toglobal<void>(q, base + offset + me * kAllToAll + 8), src.data() + 8,
                       len - 8);
    for (std::size_t i = 0; i < 8; ++i)
      splitc::store(splitc::toglobal(q, reinterpret_cast<char*>(base + offset + me * kAllToAll + i)),
                    static_cast<char>(src[i]));
  }
}

void check_all_to_all(const areas& a, std::uint64_t s, std::size_t offset, const char* what) {
  const int me = splitc::myproc(), P = splitc::procs();
  unsigned char* base = (me % 2 == 0) ? a.heap : a.mem[me];
  for (int w = 0; w < P; ++w) {
    const std::size_t len = kAllToAll - 13 * static_cast<std::size_t>(w);
    const std::size_t bad = check_pattern(base + offset + w * kAllToAll, len, s + w);
    CHECK_MSG(bad == len, "{}: data from processor {} wrong from byte {}", what, w, bad);
  }
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int me = splitc::myproc(), P = splitc::procs();
  CHECK(P <= kMaxProcs);
  const int right = (me + 1) % P;
  areas a;
  a.heap = harness::heap();
  auto* mine = static_cast<unsigned char*>(std::malloc(4 * kArea));
  a.mem = harness::exchange(mine);
  auto* heap_counter = new (harness::heap() + 4 * kArea) splitc::counter;
  g_static_received.get();
  splitc::barrier();

  // 1. The right neighbour's store_sync(k) sees all k bytes.
  for (int round = 0; round < 4; ++round) {
    send_neighbour(a, right, seed(1, round, me, 0), (round % 2) * kArea);
    splitc::store_sync(kNeighbourBytes);
    check_neighbour(a, seed(1, round, (me + P - 1) % P, 0), (round % 2) * kArea, "neighbour");
    CHECK(!splitc::is_store_sync(1));  // nothing else is stored to us before the barrier
    splitc::barrier();
  }

  // 2. store_sync in pieces; is_store_sync polls until the bytes are there.
  send_neighbour(a, right, seed(2, 0, me, 0), 0);
  splitc::store_sync(kNeighbourBytes / 3);
  splitc::store_sync(kNeighbourBytes / 3);
  while (!splitc::is_store_sync(kNeighbourBytes - 2 * (kNeighbourBytes / 3))) {
  }
  check_neighbour(a, seed(2, 0, (me + P - 1) % P, 0), 0, "pieces");
  CHECK(!splitc::is_store_sync(1));
  splitc::barrier();

  // 3. all_store_sync and store_sync mixed, with no barrier after all_store_sync: bytes a
  //    fast processor stores right after it returns must stay counted.
  for (int round = 0; round < 3; ++round) {
    send_all_to_all(a, seed(3, round, 0, 0), 2 * kArea);
    send_neighbour(a, right, seed(3, round, me, 1), 0);
    splitc::all_store_sync();
    check_all_to_all(a, seed(3, round, 0, 0), 2 * kArea, "all-to-all before all_store_sync");
    check_neighbour(a, seed(3, round, (me + P - 1) % P, 1), 0, "neighbour before all_store_sync");
    send_neighbour(a, right, seed(3, round, me, 2), kArea);
    splitc::store_sync(kNeighbourBytes);
    check_neighbour(a, seed(3, round, (me + P - 1) % P, 2), kArea, "neighbour after all_store_sync");
    // store_sync counts bytes, not whose: the next phase's stores must wait for everyone's
    // store_sync (seed 003 §5.2: "the higher level program protocol must avoid confusion").
    splitc::barrier();
    send_all_to_all(a, seed(3, round, 0, 3), 3 * kArea);
    splitc::all_store_sync();
    check_all_to_all(a, seed(3, round, 0, 3), 3 * kArea, "all-to-all after store_sync");
  }
  splitc::all_store_sync();  // nothing in flight: returns
  splitc::barrier();
  CHECK(!splitc::is_store_sync(1));  // all_store_sync took every byte off the counters
  splitc::barrier();

  // 4. Explicit counters (static, spread heap) and the library's, at once, kept apart.
  for (int round = 0; round < 2; ++round) {
    send_neighbour(a, right, seed(4, round, me, 0), 0, &g_static_received.get(), &*g_sent_a);
    send_neighbour(a, right, seed(4, round, me, 1), kArea);
    send_neighbour(a, right, seed(4, round, me, 2), 2 * kArea, heap_counter, &*g_sent_b);
    const int left = (me + P - 1) % P;
    splitc::store_sync(kNeighbourBytes, *heap_counter, *g_sent_b);
    check_neighbour(a, seed(4, round, left, 2), 2 * kArea, "spread-heap counter");
    splitc::store_sync(kNeighbourBytes, g_static_received.get(), *g_sent_a);
    check_neighbour(a, seed(4, round, left, 0), 0, "static counter");
    // The library counter saw only its own phase's bytes.
    CHECK(!splitc::is_store_sync(kNeighbourBytes + 1));
    splitc::store_sync(kNeighbourBytes);
    check_neighbour(a, seed(4, round, left, 1), kArea, "library counter");
    CHECK(!splitc::is_store_sync(1));
    CHECK(!splitc::is_store_sync(1, g_static_received.get(), *g_sent_a));
    CHECK(!splitc::is_store_sync(1, *heap_counter, *g_sent_b));
    splitc::barrier();
  }
  // Explicit-counter stores are not the library's: all_store_sync has nothing to wait for.
  splitc::all_store_sync();

  // 5. all_store_sync alone, several rounds back to back.
  for (int round = 0; round < 3; ++round) {
    send_all_to_all(a, seed(5, round, 0, 0), (round % 2) * kArea);
    splitc::all_store_sync();
    check_all_to_all(a, seed(5, round, 0, 0), (round % 2) * kArea, "all_store_sync round");
    splitc::barrier();
  }

  // 6. reset_store_sync (Split-C's sorting programs): receivers store_sync then reset, and
  //    later everyone all_store_syncs a round of stores. The reset must not unbalance it.
  const int left = (me + P - 1) % P;
  for (int round = 0; round < 3; ++round) {
    send_neighbour(a, right, seed(6, round, me, 0), 0);
    if (me % 2 == 0 || round == 2) {  // receivers; in the last round, everyone
      splitc::store_sync(kNeighbourBytes);
      check_neighbour(a, seed(6, round, left, 0), 0, "before reset_store_sync");
      splitc::reset_store_sync();
    }
    splitc::barrier();
    send_all_to_all(a, seed(6, round, 0, 1), 2 * kArea);
    splitc::all_store_sync();
    check_all_to_all(a, seed(6, round, 0, 1), 2 * kArea, "all_store_sync after a reset");
    // The odd processors never took their neighbour's bytes: all_store_sync did.
    check_neighbour(a, seed(6, round, left, 0), 0, "all_store_sync after a reset");
    CHECK(!splitc::is_store_sync(1));
    splitc::barrier();
  }
  //    A reset while stores are in flight: what arrives later is counted, and
  //    all_store_sync still waits for every byte.
  send_neighbour(a, right, seed(6, 3, me, 0), kArea);
  splitc::reset_store_sync();
  send_all_to_all(a, seed(6, 3, 0, 1), 2 * kArea);
  splitc::reset_store_sync();
  splitc::all_store_sync();
  check_neighbour(a, seed(6, 3, left, 0), kArea, "reset with stores in flight");
  check_all_to_all(a, seed(6, 3, 0, 1), 2 * kArea, "reset with stores in flight");
  splitc::barrier();
  //    A reset between phases, with nothing left to count, leaves the next phase's
  //    store_sync counting exactly its own bytes.
  send_neighbour(a, right, seed(6, 4, me, 0), 0);
  splitc::all_store_sync();
  splitc::reset_store_sync();
  splitc::barrier();
  send_neighbour(a, right, seed(6, 5, me, 0), kArea);
  splitc::store_sync(kNeighbourBytes);
  check_neighbour(a, seed(6, 5, left, 0), kArea, "store_sync after a reset");
  CHECK(!splitc::is_store_sync(1));
  splitc::barrier();
  splitc::reset_store_sync();
  splitc::all_store_sync();

  splitc::barrier();
  std::free(mine);
  return harness::pass("store_sync");
}
