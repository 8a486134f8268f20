// Counter mixing: sync() waits for the library counter only, sync_ctr(c) for c only.
#include "harness.hpp"
#include "value_types.hpp"

#include <sched.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace {

constexpr int kWords = 64;
/// Operations processor 0 starts towards a processor that does not poll: few enough that no
/// backend runs out of room for them (the mpi backend's credits: 32 packets per pair).
constexpr int kGated = 8;

struct gate {
  std::uint64_t open;   // set by processor 0 in processor 1's segment: stop spinning
  std::uint64_t ready;  // set by processor 1 in processor 0's segment: spinning, not polling
};

gate* the_gate() { return reinterpret_cast<gate*>(harness::heap()); }

std::uint64_t load(const std::uint64_t& w) {
  return std::atomic_ref<const std::uint64_t>(w).load(std::memory_order_acquire);
}

std::uint64_t word_value(int owner, int i, int round) {
  return testvals::mix((static_cast<std::uint64_t>(round) * 64 + owner) * 1000 + i);
}

/// Processor 1 stops polling until processor 0 opens the gate; processor 0 checks that its
/// operations on processor 1's malloc memory are incomplete meanwhile, whatever else completes.
/// The gate is a pair of stores into the spread heap that need no message, so it exists only
/// where processors 0 and 1 have direct access to each other; elsewhere processor 1 keeps
/// polling and only the checks that hold whatever processor 1 does are made.
void gated_round(const std::vector<std::uint64_t*>& mem, int round) {
  const int me = splitc::myproc();
  gate* g = the_gate();
  const auto ready_on_0 = splitc::toglobal(0, &g->ready);
  const auto open_on_1 = splitc::toglobal(1, &g->open);
  // Processors 0 and 1 reach each other's spread heap by load and store (smp, or one host under
  // the same-host layer): each side finds the same.
  const bool gated = splitc::direct_pointer(me == 1 ? ready_on_0 : open_on_1) != nullptr;
  if (me == 1 && gated) {
    splitc::write(ready_on_0, std::uint64_t(round));  // spread heap: a direct store
    while (load(g->open) != std::uint64_t(round)) sched_yield();  // no poll: nothing is served
  } else if (me == 0) {
    if (gated)
      while (load(g->ready) != std::uint64_t(round)) sched_yield();
    // Processor 1 serves no message until the gate opens.
    std::uint64_t got_ctr[kGated], got_lib[kGated];
    splitc::counter ctr, idle;
    for (int i = 0; i < kGated; ++i) splitc::get(&got_ctr[i], splitc::toglobal(1, mem[1] + i), ctr);
    CHECK(ctr.value() > 0);
    CHECK(splitc::is_sync());      // the library counter has nothing in flight
    splitc::sync();                // so this returns at once
    CHECK(splitc::is_sync_ctr(idle));
    splitc::sync_ctr(idle);        // an unused counter is complete
    if (gated) CHECK(!splitc::is_sync_ctr(ctr));  // processor 1 has not polled
    // Now the library counter has operations in flight, ctr still too.
    for (int i = 0; i < kGated; ++i) splitc::get(&got_lib[i], splitc::toglobal(1, mem[1] + i));
    const std::uint64_t mark = word_value(0, 0, round) ^ 1;
    splitc::put(splitc::toglobal(1, mem[1] + kWords), mark);  // library counter
    if (gated) CHECK(!splitc::is_sync());
    splitc::sync_ctr(idle);  // still returns at once: sync_ctr waits for its counter only
    if (gated) CHECK(!splitc::is_sync_ctr(ctr));
    // Operations to other processors on a third counter complete while 1 is closed.
    if (splitc::procs() > 2) {
      splitc::counter other;
      std::uint64_t got_other[kGated];
      for (int i = 0; i < kGated; ++i)
        splitc::get(&got_other[i], splitc::toglobal(2, mem[2] + i), other);
      splitc::sync_ctr(other);
      for (int i = 0; i < kGated; ++i) CHECK(got_other[i] == word_value(2, i, round));
      if (gated) {
        CHECK(!splitc::is_sync_ctr(ctr));
        CHECK(!splitc::is_sync());
      }
    }
    // A write into processor 1's spread heap needs no message: it opens the gate.
    if (gated) splitc::write(open_on_1, std::uint64_t(round));
    splitc::sync();
    splitc::sync_ctr(ctr);
    for (int i = 0; i < kGated; ++i) {
      CHECK_MSG(got_ctr[i] == word_value(1, i, round), "round {} word {}", round, i);
      CHECK_MSG(got_lib[i] == word_value(1, i, round), "round {} word {}", round, i);
    }
    CHECK(splitc::read(splitc::toglobal(1, mem[1] + kWords)) == mark);
  }
  splitc::barrier();
}

/// Everyone issues gets and puts to everyone on several counters and polls until each is done.
void polled_round(const std::vector<std::uint64_t*>& mem, int round) {
  const int me = splitc::myproc(), P = splitc::procs();
  std::vector<std::uint64_t> got(static_cast<std::size_t>(P) * kWords);
  splitc::counter a, b;
  for (int k = 1; k <= P; ++k) {
    const int q = (me + k) % P;
    for (int i = 0; i < kWords; ++i) {
      auto& dst = got[static_cast<std::size_t>(q) * kWords + i];
      if (i % 3 == 0) splitc::get(&dst, splitc::toglobal(q, mem[q] + i));
      else if (i % 3 == 1) splitc::get(&dst, splitc::toglobal(q, mem[q] + i), a);
      else splitc::get(&dst, splitc::toglobal(q, mem[q] + i), b);
    }
    // Puts into this processor's column of q's second half.
    splitc::put(splitc::toglobal(q, mem[q] + kWords + 1 + me), word_value(me, q, round), a);
  }
  std::uint64_t spins = 0;
  while (!splitc::is_sync_ctr(a)) ++spins;
  while (!splitc::is_sync_ctr(b)) ++spins;
  while (!splitc::is_sync()) ++spins;
  for (int q = 0; q < P; ++q)
    for (int i = 0; i < kWords; ++i)
      CHECK_MSG(got[static_cast<std::size_t>(q) * kWords + i] == word_value(q, i, round),
                "round {}: word {} of processor {}", round, i, q);
  splitc::barrier();
  for (int w = 0; w < P; ++w)
    CHECK_MSG(mem[me][kWords + 1 + w] == word_value(w, me, round), "round {}: put from {}", round, w);
  splitc::barrier();
}

/// Thousands of operations outstanding on one counter.
void many_on_one_counter(const std::vector<std::uint64_t*>& mem) {
  const int me = splitc::myproc(), P = splitc::procs();
  const int q = (me + 1) % P;
  constexpr int kMany = 3000;
  std::vector<std::uint64_t> got(kMany);
  splitc::counter ctr;
  for (int n = 0; n < kMany; ++n) splitc::get(&got[n], splitc::toglobal(q, mem[q] + n % kWords), ctr);
  splitc::sync_ctr(ctr);
  CHECK(ctr.value() == 0);
  for (int n = 0; n < kMany; ++n) CHECK(got[n] == word_value(q, n % kWords, 99));
  splitc::barrier();
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int me = splitc::myproc();
  // malloc memory: every operation on it travels as an active message the owner must serve.
  auto* mine = static_cast<std::uint64_t*>(std::calloc(2 * kWords + 16, sizeof(std::uint64_t)));
  const auto mem = harness::exchange(mine);
  the_gate()->open = the_gate()->ready = 0;
  splitc::barrier();

  for (int round = 1; round <= 3; ++round) {
    for (int i = 0; i < kWords; ++i) mine[i] = word_value(me, i, round);
    splitc::barrier();
    if (splitc::procs() >= 2) gated_round(mem, round);
    polled_round(mem, round);
  }
  for (int i = 0; i < kWords; ++i) mine[i] = word_value(me, i, 99);
  splitc::barrier();
  many_on_one_counter(mem);
  std::free(mine);
  return harness::pass("counters");
}
