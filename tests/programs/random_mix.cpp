// A seeded random mix of all transfers between random pairs, sizes and alignments.
#include "harness.hpp"
#include "value_types.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

namespace {

using testvals::check_pattern;
using testvals::fill_pattern;

constexpr int kMaxProcs = 8;
constexpr int kRounds = 6;
constexpr int kOpsPerRound = 120;
constexpr std::size_t kSlot = 512 * 1024;  // per (writer, memory kind) at every processor

enum kind { k_put, k_put_ctr, k_bulk_put, k_bulk_put_ctr, k_store, k_bulk_store, k_write, k_bulk_write, n_kinds };

struct op {
  kind k;
  int target;
  bool heap;            // spread heap or malloc memory
  std::size_t offset;   // within the writer's slot
  std::size_t len;
  std::uint64_t seed;
};

/// The ops processor `w` issues in round `r`: the same list wherever it is computed.
std::vector<op> plan(int r, int w, int P) {
  std::mt19937_64 rng(testvals::mix(static_cast<std::uint64_t>(r) * 1000 + w));
  std::vector<op> ops;
  std::size_t used[kMaxProcs][2] = {};
  for (int i = 0; i < kOpsPerRound; ++i) {
    op o;
    o.k = static_cast<kind>(rng() % n_kinds);
    o.target = static_cast<int>(rng() % P);
    o.heap = rng() % 2 == 0;
    const std::uint64_t pick = rng() % 100;
    if (o.k == k_put || o.k == k_put_ctr || o.k == k_store || o.k == k_write)
      o.len = 8;  // single values: one std::uint64_t
    else if (pick < 60)
      o.len = rng() % 64;  // around the inline boundary
    else if (pick < 95)
      o.len = rng() % 5000;
    else
      o.len = 131072 - 3 + rng() % 7;  // around the fragment boundary
    o.offset = used[o.target][o.heap] + rng() % 8;
    if (o.offset + o.len > kSlot) continue;  // slot full: skip
    used[o.target][o.heap] = o.offset + o.len;
    o.seed = testvals::mix((static_cast<std::uint64_t>(r) << 40) ^ (std::uint64_t(w) << 32) ^ i);
    ops.push_back(o);
  }
  return ops;
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int me = splitc::myproc(), P = splitc::procs();
  CHECK(P <= kMaxProcs);
  // Slots: [writer][0] in the spread heap, [writer][1] in malloc memory.
  unsigned char* heap = harness::heap();
  auto* mem = static_cast<unsigned char*>(std::malloc(kSlot * kMaxProcs));
  const auto mems = harness::exchange(mem);
  auto slot_at = [&](int q, int writer, bool in_heap) {
    return (in_heap ? heap : mems[q]) + static_cast<std::size_t>(writer) * kSlot;
  };
  std::vector<unsigned char> src(kSlot);

  for (int r = 0; r < kRounds; ++r) {
    const auto ops = plan(r, me, P);
    splitc::counter ctr;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const op& o = ops[i];
      unsigned char* dst = slot_at(o.target, me, o.heap) + o.offset;
      const auto g = splitc::toglobal<void>(o.target, dst);
      const auto g64 = splitc::global_pointer_cast<std::uint64_t>(g);
      std::uint64_t v;
      fill_pattern(&v, 8, o.seed);
      // One source buffer for every op: a bulk source has been read when the call returns.
      unsigned char* s = src.data() + (i % 8);
      fill_pattern(s, o.len, o.seed);
      switch (o.k) {
        case k_put: splitc::put(g64, v); break;
        case k_put_ctr: splitc::put(g64, v, ctr); break;
        case k_bulk_put: splitc::bulk_put(g, s, o.len); break;
        case k_bulk_put_ctr: splitc::bulk_put(g, s, o.len, ctr); break;
        case k_store: splitc::store(g64, v); break;
        case k_bulk_store: splitc::bulk_store(g, s, o.len); break;
        case k_write: splitc::write(g64, v); break;
        case k_bulk_write: splitc::bulk_write(g, s, o.len); break;
        default: break;
      }
    }
    splitc::sync();
    splitc::sync_ctr(ctr);
    splitc::all_store_sync();
    splitc::barrier();
    // Check what everyone wrote here, by replaying their plans.
    for (int w = 0; w < P; ++w) {
      for (const op& o : plan(r, w, P)) {
        if (o.target != me) continue;
        const unsigned char* p = slot_at(me, w, o.heap) + o.offset;
        const std::size_t bad = check_pattern(p, o.len, o.seed);
        CHECK_MSG(bad == o.len, "round {}: {} bytes (kind {}) from processor {} into {} at +{}: "
                  "wrong from byte {}", r, o.len, static_cast<int>(o.k), w,
                  o.heap ? "the heap" : "malloc memory", o.offset, bad);
      }
    }
    // Gets of random regions written this round, from everywhere.
    std::mt19937_64 rng(testvals::mix(0xabc + r * 64 + me));
    std::vector<std::pair<op, std::vector<unsigned char>>> fetched;
    splitc::counter gctr;
    for (int k = 0; k < 40; ++k) {
      const int w = static_cast<int>(rng() % P);
      const auto theirs = plan(r, w, P);
      if (theirs.empty()) continue;
      const op& o = theirs[rng() % theirs.size()];
      fetched.emplace_back(o, std::vector<unsigned char>(o.len + 1));
      const auto g = splitc::toglobal<void>(o.target, slot_at(o.target, w, o.heap) + o.offset);
      unsigned char* d = fetched.back().second.data() + 1;  // unaligned destination
      switch (k % 3) {
        case 0: splitc::bulk_get(d, g, o.len); break;
        case 1: splitc::bulk_get(d, g, o.len, gctr); break;
        default: splitc::bulk_read(d, g, o.len); break;
      }
    }
    splitc::sync();
    splitc::sync_ctr(gctr);
    for (auto& [o, data] : fetched) {
      const std::size_t bad = check_pattern(data.data() + 1, o.len, o.seed);
      CHECK_MSG(bad == o.len, "round {}: get of {} bytes from processor {}: wrong from byte {}", r,
                o.len, o.target, bad);
    }
    splitc::barrier();
  }
  splitc::barrier();
  std::free(mem);
  return harness::pass("random_mix");
}
