// Active-message traffic far beyond the rings' capacity completes, in order per pair (on
// backends whose caps say ordered; exactly once on the others).
// Usage: am_flood [SHORTS [MEDIUMS]]: requests per ordered pair (defaults 12000 and 400; the
// default SHORTS is beyond what the smp backend's default ring holds).
#include "harness.hpp"
#include "value_types.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <sched.h>
#include <vector>

namespace {

constexpr int kMaxProcs = 8;
// A short request with 8 arguments takes 2 cells (128 bytes) of a 1 MiB ring: 8192 fit. Set
// from the command line, the same on every processor.
std::uint64_t kShorts = 12000;  // per ordered pair
std::uint64_t kMediums = 400;   // per ordered pair, 4 KiB each: 1.6 MiB
constexpr bool kOrdered = splitc::active_backend::caps.ordered;
constexpr std::size_t kMediumBytes = 4096;

// Handler state: one per processor, also where processors share one process.
struct handler_state {
  int errors = 0;
  std::uint64_t next_short[kMaxProcs] = {};
  std::uint64_t next_medium[kMaxProcs] = {};
  // Unordered backends: which sequence numbers arrived from each sender (each exactly once).
  std::vector<unsigned char> seen_short[kMaxProcs], seen_medium[kMaxProcs];
  std::uint64_t replies = 0;
  std::uint64_t reply_sum = 0;
  std::uint64_t sending = 0;  // 1 + index of the message being sent in phase 1
};
splitc::per_processor<handler_state> g;

// The same on every processor (register_handler checks it): plain statics.
splitc::handler_id h_short, h_medium, h_reply, h_probe;

// Phase 1 state.
struct phase1_flags {
  std::uint64_t started[kMaxProcs];  // in processor 0's segment: sender w is in its send loop
  std::uint64_t probed[kMaxProcs];   // 1 + messages sender w had sent when it ran the probe
};
phase1_flags* flags() { return reinterpret_cast<phase1_flags*>(harness::heap()); }

std::uint64_t load(const std::uint64_t& w) {
  return std::atomic_ref<const std::uint64_t>(w).load(std::memory_order_acquire);
}

// Runs on a sender only inside poll, and the sender's phase-1 loop polls only inside a send
// that found no room: so this proves the sender is blocked on a full ring.
void on_probe(const splitc::am_message&) {
  splitc::write(splitc::toglobal(0, &flags()->probed[splitc::myproc()]), g->sending);
}

// Counts the message with sequence number `seq` from `source`: in order on ordered backends,
// exactly once on the others.
bool arrived(std::uint64_t& next, std::vector<unsigned char>& seen, std::uint64_t seq,
             std::uint64_t limit) {
  if constexpr (kOrdered) return seq == next++;
  ++next;
  if (seq >= limit) return false;
  if (seen.size() != limit) seen.assign(limit, 0);
  return seen[seq]++ == 0;
}

void on_short(const splitc::am_message& m) {
  // Ordered pairs (caps.ordered): sequence numbers arrive one after the other.
  if (m.nargs != 8 ||
      !arrived(g->next_short[m.source], g->seen_short[m.source], m.args[0], kShorts))
    ++g->errors;
  for (int k = 1; k < 8; ++k)
    if (m.args[k] != m.args[0] * 8 + k) ++g->errors;
  splitc::am_reply(m, h_reply, m.args[0]);
}
void on_medium(const splitc::am_message& m) {
  if (!arrived(g->next_medium[m.source], g->seen_medium[m.source], m.args[0], kMediums) ||
      m.length != kMediumBytes)
    ++g->errors;
  if (testvals::check_pattern(m.payload, m.length, m.args[0] * 64 + m.source) != m.length)
    ++g->errors;
  splitc::am_reply(m, h_reply, m.args[0]);
}
void on_reply(const splitc::am_message& m) {
  ++g->replies;
  g->reply_sum += m.args[0];
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  if (argc > 1) kShorts = std::strtoull(argv[1], nullptr, 10);
  if (argc > 2) kMediums = std::strtoull(argv[2], nullptr, 10);
  CHECK(kShorts > 0 && kMediums <= kShorts);
  const int me = splitc::myproc(), P = splitc::procs();
  CHECK(P <= kMaxProcs);
  h_short = splitc::register_handler(on_short);
  h_medium = splitc::register_handler(on_medium);
  h_reply = splitc::register_handler(on_reply);
  h_probe = splitc::register_handler(on_probe);
  splitc::barrier();

  // 1. Processor 0 does not poll while every other processor sends it kShorts requests. When
  // every sender reaches processor 0's spread heap by load and store and messages are rings in
  // that same memory (smp: a message leaves without its sender's progress), the senders tell
  // it (by stores) that they are in their send loops and prove (from a probe handler) that
  // they are blocked on a full ring; otherwise processor 0 just stays away for a while before
  // serving them. (Under a network layer's same-host memory, processor 0's probe may wait in
  // the layer -- MPICH's shared-memory queue -- for progress processor 0 does not make.)
  const bool direct_to_0 =
      me == 0 || splitc::direct_pointer(splitc::toglobal(0, &flags()->started[me])) != nullptr;
  const bool all_direct = !splitc::has_host_members<splitc::active_backend> &&
                          splitc::reduce_to_all(int{direct_to_0}, splitc::ops::min{}) != 0;
  if (P > 1) {
    if (me == 0 && !all_direct) {
      usleep(200 * 1000);  // no poll: the senders run out of room, queue and wait
      while (true) {
        std::uint64_t got = 0;
        for (int w = 1; w < P; ++w) got += g->next_short[w];
        if (got == static_cast<std::uint64_t>(P - 1) * kShorts) break;
        splitc::poll();
      }
    } else if (me == 0) {
      for (int w = 1; w < P; ++w) {
        while (load(flags()->started[w]) == 0) sched_yield();
        splitc::am_request(w, h_probe);  // our ring to w is empty: this does not poll
      }
      for (int w = 1; w < P; ++w) {
        while (load(flags()->probed[w]) == 0) sched_yield();
        CHECK_MSG(load(flags()->probed[w]) <= kShorts,
                  "processor {} sent all its requests to a processor that did not poll: the "
                  "ring never filled",
                  w);
      }
      // Now serve them all.
      while (true) {
        std::uint64_t got = 0;
        for (int w = 1; w < P; ++w) got += g->next_short[w];
        if (got == static_cast<std::uint64_t>(P - 1) * kShorts) break;
        splitc::poll();
      }
    } else {
      if (all_direct)
        splitc::write(splitc::toglobal(0, &flags()->started[me]), std::uint64_t{1});
      for (std::uint64_t n = 0; n < kShorts; ++n) {
        g->sending = static_cast<std::uint64_t>(n) + 1;
        const std::uint64_t s = static_cast<std::uint64_t>(n);
        splitc::am_request(0, h_short, s, s * 8 + 1, s * 8 + 2, s * 8 + 3, s * 8 + 4, s * 8 + 5,
                           s * 8 + 6, s * 8 + 7);
      }
      while (g->replies < kShorts) splitc::poll();
    }
    splitc::barrier();
    CHECK(g->errors == 0);
    for (int w = 0; w < P; ++w) {
      g->next_short[w] = 0;
      g->seen_short[w].clear();
    }
    g->replies = g->reply_sum = 0;
    splitc::barrier();
  }

  // 2. All-to-all, requests and replies, nobody polling except when a ring is full.

  std::vector<unsigned char> payload(kMediumBytes);
  std::uint64_t expect_sum = 0;
  for (std::uint64_t n = 0; n < kShorts; ++n) {
    for (int k = 1; k <= P; ++k) {
      const int q = (me + k) % P;
      const std::uint64_t s = static_cast<std::uint64_t>(n);
      splitc::am_request(q, h_short, s, s * 8 + 1, s * 8 + 2, s * 8 + 3, s * 8 + 4, s * 8 + 5,
                         s * 8 + 6, s * 8 + 7);
      expect_sum += s;
      if (n < kMediums) {
        testvals::fill_pattern(payload.data(), kMediumBytes, s * 64 + me);
        splitc::am_request_medium(q, h_medium, payload.data(), kMediumBytes, s);
        expect_sum += s;
      }
    }
  }
  const std::uint64_t expect_replies = static_cast<std::uint64_t>(P) * (kShorts + kMediums);
  while (g->replies < expect_replies) splitc::poll();
  CHECK_MSG(g->replies == expect_replies, "{} replies, expected {}", g->replies, expect_replies);
  CHECK(g->reply_sum == expect_sum);
  splitc::barrier();  // everyone's requests to us have run
  for (int w = 0; w < P; ++w) {
    CHECK_MSG(g->next_short[w] == kShorts, "{} short requests from processor {}",
              g->next_short[w], w);
    CHECK_MSG(g->next_medium[w] == kMediums, "{} medium requests from processor {}",
              g->next_medium[w], w);
  }
  CHECK_MSG(g->errors == 0, "{} wrong or out-of-order messages", g->errors);
  return harness::pass("am_flood");
}
