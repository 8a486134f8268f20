// Every bulk operation at sizes 0..2 fragments, unaligned, on heap/stack/static/malloc memory.
#include "harness.hpp"
#include "value_types.hpp"

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

using testvals::check_pattern;
using testvals::fill_pattern;

constexpr std::size_t kSizes[] = {0, 1, 7, 40, 41, 1023, 131071, 131072, 131073, 262147};
constexpr int kNumSizes = static_cast<int>(std::size(kSizes));
constexpr std::size_t kSlack = 32;
constexpr unsigned char kGuard = 0x5a;

struct offsets {
  std::size_t src, dst;
};
constexpr offsets kOffsets[] = {{0, 0}, {3, 5}, {7, 1}};

constexpr std::array<std::size_t, kNumSizes + 1> size_starts() {
  std::array<std::size_t, kNumSizes + 1> start{};
  for (int j = 0; j < kNumSizes; ++j)
    start[j + 1] = (start[j] + kSlack + kSizes[j] + kSlack + 63) / 64 * 64;
  return start;
}
constexpr auto kStart = size_starts();
constexpr std::size_t kRegion = kStart[kNumSizes];  // all sizes, with slack
constexpr std::size_t kSumSizes = [] {
  std::size_t s = 0;
  for (std::size_t n : kSizes) s += n;
  return s;
}();

// An area: [0] written by this processor, [1] written by the left neighbour, [2] read by
// others, [3] local scratch (sources of pushes, destinations of pulls).
constexpr std::size_t kArea = 4 * kRegion;
enum region { from_self = 0, from_left = 1, source = 2, scratch = 3 };

enum target { heap, stack, statics, malloced };
const char* const target_names[] = {"spread heap", "stack", "static data", "malloc memory"};

enum class op { write, put, put_ctr, store, store_ctr, read, get, get_ctr };
const char* const op_names[] = {"bulk_write", "bulk_put",  "bulk_put(ctr)", "bulk_store",
                                "bulk_store(ctr)", "bulk_read", "bulk_get", "bulk_get(ctr)"};

// Static data (one area per processor also where processors share one process).
splitc::per_processor<std::array<unsigned char, kArea>> g_static_area;
// Explicit store counters; the receive counter at the same address everywhere (harness.hpp).
harness::static_counter g_received{2 * kArea};
splitc::per_processor<splitc::counter> g_sent;

std::uint64_t seed(int t, op o, int combo, int writer, int j) {
  return ((((static_cast<std::uint64_t>(t) * 8 + static_cast<int>(o)) * 4 + combo) * 16 + writer) *
              16 +
          j) *
         1000003;
}

class tester {
 public:
  tester(target t, unsigned char* mine) : t_(t), mine_(mine) {
    where_ = harness::exchange(mine);
    std::memset(mine_, kGuard, kArea);
    splitc::barrier();
  }

  void run_all() {
    for (int combo = 0; combo < static_cast<int>(std::size(kOffsets)); ++combo) {
      for (op o : {op::write, op::put, op::put_ctr, op::store, op::store_ctr}) push(o, combo);
      for (op o : {op::read, op::get, op::get_ctr}) {
        pull(o, combo, mine_ + scratch * kRegion);
        // Also into the spread heap, where long replies are deposited directly.
        if (t_ != heap) pull(o, combo, harness::heap() + kArea);
      }
    }
  }

 private:
  unsigned char* at(int q, region r, int j) const { return where_[q] + r * kRegion + kStart[j]; }

  void check_region(region r, op o, int combo, int writer, const unsigned char* base) {
    const offsets off = kOffsets[combo];
    for (int j = 0; j < kNumSizes; ++j) {
      const unsigned char* p = base + kStart[j];
      const std::size_t len = kSizes[j], end = kStart[j + 1] - kStart[j];
      const std::size_t bad = check_pattern(p + off.dst, len, seed(t_, o, combo, writer, j));
      CHECK_MSG(bad == len,
                "{} of {} bytes (src+{}, dst+{}) {} processor {} into {}: wrong from byte {}",
                op_names[static_cast<int>(o)], len, off.src, off.dst,
                r == scratch ? "from" : "by", writer, target_names[t_], bad);
      for (std::size_t i = 0; i < off.dst; ++i)
        CHECK_MSG(p[i] == kGuard, "{} of {} bytes: guard byte {} before the data was overwritten",
                  op_names[static_cast<int>(o)], len, off.dst - i);
      for (std::size_t i = off.dst + len; i < end; ++i)
        CHECK_MSG(p[i] == kGuard, "{} of {} bytes: guard byte {} after the data was overwritten",
                  op_names[static_cast<int>(o)], len, i - off.dst - len);
    }
  }

  /// This processor writes every size into its own area (local) and its right neighbour's.
  void push(op o, int combo) {
    const int me = splitc::myproc(), P = splitc::procs();
    const int right = (me + 1) % P, left = (me + P - 1) % P;
    const offsets off = kOffsets[combo];
    unsigned char* src = mine_ + scratch * kRegion;
    for (int j = 0; j < kNumSizes; ++j)
      fill_pattern(src + kStart[j] + off.src, kSizes[j], seed(t_, o, combo, me, j));
    splitc::counter ctr;
    for (auto [q, r] : {std::pair{right, from_left}, std::pair{me, from_self}}) {
      for (int j = 0; j < kNumSizes; ++j) {
        const auto dst = splitc::toglobal<void>(q, at(q, r, j) + off.dst);
        const unsigned char* s = src + kStart[j] + off.src;
        const std::size_t len = kSizes[j];
        switch (o) {
          case op::write: splitc::bulk_write(dst, s, len); break;
          case op::put: splitc::bulk_put(dst, s, len); break;
          case op::put_ctr: splitc::bulk_put(dst, s, len, ctr); break;
          case op::store: splitc::bulk_store(dst, s, len); break;
          case op::store_ctr: splitc::bulk_store(dst, s, len, g_received.get(), *g_sent); break;
          default: break;
        }
      }
    }
    // The source has been read when each call returns: scribbling on it now changes nothing.
    std::memset(src, 0xee, kRegion);
    switch (o) {
      case op::put: splitc::sync(); break;
      case op::put_ctr: splitc::sync_ctr(ctr); break;
      // Stores: this processor's own completion covers what was stored into it.
      case op::store: splitc::store_sync(2 * kSumSizes); break;
      case op::store_ctr: splitc::store_sync(2 * kSumSizes, g_received.get(), *g_sent); break;
      default: break;
    }
    if (o != op::store && o != op::store_ctr) splitc::barrier();
    check_region(from_self, o, combo, me, mine_ + from_self * kRegion);
    check_region(from_left, o, combo, left, mine_ + from_left * kRegion);
    std::memset(mine_ + from_self * kRegion, kGuard, 2 * kRegion);
    splitc::barrier();
  }

  /// This processor reads every size from its own area and its right neighbour's into `dst`.
  void pull(op o, int combo, unsigned char* dst) {
    const int me = splitc::myproc(), P = splitc::procs();
    const int right = (me + 1) % P;
    const offsets off = kOffsets[combo];
    unsigned char* own_source = mine_ + source * kRegion;
    for (int j = 0; j < kNumSizes; ++j)
      fill_pattern(own_source + kStart[j] + off.src, kSizes[j], seed(t_, o, combo, me, j));
    splitc::barrier();
    for (int q : {right, me}) {
      std::memset(dst, kGuard, kRegion);
      splitc::counter ctr;
      for (int j = 0; j < kNumSizes; ++j) {
        const auto src = splitc::toglobal<void>(q, at(q, source, j) + off.src);
        unsigned char* d = dst + kStart[j] + off.dst;
        const std::size_t len = kSizes[j];
        switch (o) {
          case op::read: splitc::bulk_read(d, src, len); break;
          case op::get: splitc::bulk_get(d, src, len); break;
          case op::get_ctr: splitc::bulk_get(d, src, len, ctr); break;
          default: break;
        }
      }
      if (o == op::get) splitc::sync();
      if (o == op::get_ctr) splitc::sync_ctr(ctr);
      check_region(scratch, o, combo, q, dst);
    }
    splitc::barrier();
  }

  target t_;
  unsigned char* mine_;
  std::vector<unsigned char*> where_;
};

[[gnu::noinline]] void on_the_stack() {
  alignas(64) unsigned char area[kArea];
  tester(stack, area).run_all();
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  CHECK(harness::heap_size() > 3 * kArea);
  g_received.get();  // before the testers' barriers
  tester(heap, harness::heap()).run_all();
  on_the_stack();
  tester(statics, g_static_area->data()).run_all();
  auto* mem = static_cast<unsigned char*>(std::malloc(kArea));
  tester(malloced, mem).run_all();
  splitc::barrier();
  std::free(mem);
  return harness::pass("bulk");
}
