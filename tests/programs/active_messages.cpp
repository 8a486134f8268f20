// Active messages between all pairs: 0..8 args, medium, long, replies, sends from handlers.
#include "harness.hpp"
#include "value_types.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <utility>
#include <vector>

namespace {

using testvals::check_pattern;
using testvals::fill_pattern;

constexpr int kMaxProcs = 8;
// What programs may send (the backend's own limits, or what the core composes above them).
constexpr std::size_t kMaxMedium = splitc::am_medium_limit;
constexpr std::size_t kMaxLong = splitc::am_long_limit;
constexpr std::size_t kMediumSizes[] = {0, 1, 40, 1000, std::min<std::size_t>(65536, kMaxMedium),
                                        kMaxMedium};
constexpr std::size_t kLongSizes[] = {0, 1, 1000, kMaxLong};
constexpr std::size_t kLongSlot = kMaxLong + 64;

// Handler state (handlers are plain functions): one per processor, also where processors share
// one process (harness.hpp).
struct handler_state {
  int errors = 0;
  int short_from[kMaxProcs] = {};
  int short_replies = 0;
  std::uint64_t reply_sum = 0;
  int medium_from[kMaxProcs] = {};
  int medium_replies = 0;
  int long_from[kMaxProcs] = {};
  int long_replies = 0;
  int forwarded = 0;
  int forward_done = 0;
  std::uint64_t* words = nullptr;  // this processor's malloc memory: [0, 2P) puts and stores
  std::uint64_t fetched[kMaxProcs] = {};  // filled by gets issued from handlers
};
splitc::per_processor<handler_state> g;

// The same on every processor (register_handler checks it): plain statics.
splitc::handler_id h_short, h_short_reply, h_medium, h_medium_reply, h_long, h_long_reply,
    h_forward, h_forwarded, h_forward_reply, h_global_ops;

std::uint64_t arg_word(int source, int nargs, int k) {
  return testvals::mix((static_cast<std::uint64_t>(source) * 16 + nargs) * 16 + k);
}

#define HCHECK(cond)                                                                          \
  do {                                                                                        \
    if (!(cond)) {                                                                            \
      ++g->errors;                                                                             \
      std::fprintf(stderr, "processor %d: handler check failed: %s (%s:%d)\n", splitc::myproc(), \
                   #cond, __FILE__, __LINE__);                                                \
    }                                                                                         \
  } while (0)

void on_short(const splitc::am_message& m) {
  HCHECK(m.is_request);
  HCHECK(m.kind == splitc::am_kind::short_msg);
  HCHECK(m.source >= 0 && m.source < splitc::procs());
  HCHECK(m.length == 0);
  std::uint64_t sum = 0;
  for (int k = 0; k < m.nargs; ++k) {
    HCHECK(m.args[k] == arg_word(m.source, m.nargs, k));
    sum += m.args[k];
  }
  ++g->short_from[m.source];
  splitc::am_reply(m, h_short_reply, sum, static_cast<std::uint64_t>(m.nargs),
                   static_cast<std::uint64_t>(splitc::myproc()));
}
void on_short_reply(const splitc::am_message& m) {
  HCHECK(!m.is_request);
  HCHECK(m.nargs == 3);
  HCHECK(static_cast<int>(m.args[2]) == m.source);
  ++g->short_replies;
  g->reply_sum += m.args[0];
}

void on_medium(const splitc::am_message& m) {
  HCHECK(m.is_request && m.kind == splitc::am_kind::medium_msg && m.nargs == 2);
  HCHECK(m.length == m.args[1]);
  HCHECK(check_pattern(m.payload, m.length, m.args[0]) == m.length);
  ++g->medium_from[m.source];
  // Reply with a third of it (from the handler's buffer, valid during the handler).
  splitc::am_reply_medium(m, h_medium_reply, m.payload, m.length / 3, m.args[0], m.length / 3);
}
void on_medium_reply(const splitc::am_message& m) {
  HCHECK(!m.is_request && m.kind == splitc::am_kind::medium_msg);
  HCHECK(m.length == m.args[1]);
  HCHECK(check_pattern(m.payload, m.length, m.args[0]) == m.length);
  ++g->medium_replies;
}

void on_long(const splitc::am_message& m) {
  HCHECK(m.is_request && m.kind == splitc::am_kind::long_msg && m.nargs == 3);
  // The sender named its copy of the slot; the payload is in this processor's (the same
  // address, except on sim, where segments lie apart).
  HCHECK(m.payload == splitc::local_copy(reinterpret_cast<void*>(m.args[1])));
  HCHECK(m.length == m.args[2]);
  HCHECK(check_pattern(m.payload, m.length, m.args[0]) == m.length);
  ++g->long_from[m.source];
  splitc::am_reply(m, h_long_reply);
}
void on_long_reply(const splitc::am_message& m) {
  HCHECK(!m.is_request && m.nargs == 0);
  ++g->long_replies;
}

// A request handler may send requests of its own (queued if there is no room).
void on_forward(const splitc::am_message& m) {
  const int origin = static_cast<int>(m.args[0]);
  const int next = (splitc::myproc() + 1) % splitc::procs();
  splitc::am_request(next, h_forwarded, static_cast<std::uint64_t>(origin), m.args[1]);
}
void on_forwarded(const splitc::am_message& m) {
  ++g->forwarded;
  splitc::am_reply(m, h_forward_reply, m.args[0], m.args[1]);
}
void on_forward_reply(const splitc::am_message& m) {
  HCHECK(m.args[1] == testvals::mix(m.args[0] + 77));
  ++g->forward_done;
}

std::uint64_t word_of(int from, int to, int kind) {
  return testvals::mix((static_cast<std::uint64_t>(from) * 64 + to) * 4 + kind);
}

// A request handler may issue global-memory operations: here a put and a store into the
// requester's malloc memory (args: its address) and a get from it (message path: queued or
// sent, completed later by this processor's sync() and the requester's store_sync()).
void on_global_ops(const splitc::am_message& m) {
  const int me = splitc::myproc();
  auto* words = reinterpret_cast<std::uint64_t*>(static_cast<std::uintptr_t>(m.args[0]));
  splitc::put(splitc::toglobal(m.source, words + me), word_of(me, m.source, 1));
  splitc::store(splitc::toglobal(m.source, words + splitc::procs() + me), word_of(me, m.source, 2));
  splitc::get(&g->fetched[m.source], splitc::toglobal(m.source, words + 2 * kMaxProcs + me));
}

template <std::size_t... K>
void send_short(int q, std::index_sequence<K...>) {
  [[maybe_unused]] const int me = splitc::myproc();
  splitc::am_request(q, h_short, arg_word(me, static_cast<int>(sizeof...(K)), K)...);
}

template <class Done>
void poll_until(Done done) {
  while (!done()) splitc::poll();
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int me = splitc::myproc(), P = splitc::procs();
  CHECK(P <= kMaxProcs);
  h_short = splitc::register_handler(on_short);
  h_short_reply = splitc::register_handler(on_short_reply);
  h_medium = splitc::register_handler(on_medium);
  h_medium_reply = splitc::register_handler(on_medium_reply);
  h_long = splitc::register_handler(on_long);
  h_long_reply = splitc::register_handler(on_long_reply);
  h_forward = splitc::register_handler(on_forward);
  h_forwarded = splitc::register_handler(on_forwarded);
  h_forward_reply = splitc::register_handler(on_forward_reply);
  h_global_ops = splitc::register_handler(on_global_ops);
  CHECK(h_short != h_short_reply && h_forward_reply != h_forwarded);
  // Handler ids are the same everywhere (same registration order).
  auto* ids = reinterpret_cast<splitc::handler_id*>(harness::heap());
  *ids = h_long;
  splitc::barrier();
  for (int q = 0; q < P; ++q) CHECK(splitc::read(splitc::toglobal(q, ids)) == h_long);
  splitc::barrier();

  // 1. Short requests with 0..8 arguments to everyone, each answered by a short reply.
  std::uint64_t expect_sum = 0;
  for (int k = 1; k <= P; ++k) {
    const int q = (me + k) % P;
    send_short(q, std::make_index_sequence<0>{});
    send_short(q, std::make_index_sequence<1>{});
    send_short(q, std::make_index_sequence<2>{});
    send_short(q, std::make_index_sequence<3>{});
    send_short(q, std::make_index_sequence<4>{});
    send_short(q, std::make_index_sequence<5>{});
    send_short(q, std::make_index_sequence<6>{});
    send_short(q, std::make_index_sequence<7>{});
    send_short(q, std::make_index_sequence<8>{});
    for (int n = 0; n <= 8; ++n)
      for (int a = 0; a < n; ++a) expect_sum += arg_word(me, n, a);
  }
  poll_until([&] { return g->short_replies == 9 * P; });
  CHECK_MSG(g->reply_sum == expect_sum, "reply sum {} != {}", g->reply_sum, expect_sum);
  splitc::barrier();
  for (int w = 0; w < P; ++w)
    CHECK_MSG(g->short_from[w] == 9, "{} short requests from {}", g->short_from[w], w);
  CHECK(g->errors == 0);

  // 2. Medium requests of every size up to the limit, answered by medium replies.
  std::vector<unsigned char> buf(kMaxMedium);
  for (int k = 1; k <= P; ++k) {
    const int q = (me + k) % P;
    for (std::size_t len : kMediumSizes) {
      const std::uint64_t s = testvals::mix(len * 131 + me * 7 + q);
      fill_pattern(buf.data(), len, s);
      splitc::am_request_medium(q, h_medium, buf.data(), len, s, static_cast<std::uint64_t>(len));
    }
  }
  const int mediums = static_cast<int>(std::size(kMediumSizes));
  poll_until([&] { return g->medium_replies == mediums * P; });
  splitc::barrier();
  for (int w = 0; w < P; ++w) CHECK(g->medium_from[w] == mediums);
  CHECK(g->errors == 0);

  // 3. Long requests into the spread heap (slot per source) and into malloc memory.
  unsigned char* heap_slots = harness::heap() + 4096;
  auto* mine = static_cast<unsigned char*>(std::malloc(kLongSlot * kMaxProcs));
  const auto mems = harness::exchange(mine);
  std::vector<unsigned char> src(kMaxLong);
  int longs = 0;
  for (int k = 1; k <= P; ++k) {
    const int q = (me + k) % P;
    for (std::size_t len : kLongSizes) {
      for (unsigned char* base : {heap_slots, mems[q]}) {
        unsigned char* dst = base + me * kLongSlot + (len % 7);
        const std::uint64_t s = testvals::mix(len + 1000 * me + 100000 * q + (base == heap_slots));
        fill_pattern(src.data(), len, s);
        splitc::am_request_long(q, h_long, src.data(), len, dst, s,
                                static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(dst)),
                                static_cast<std::uint64_t>(len));
        ++longs;
        fill_pattern(src.data(), len, s + 1);  // the payload was copied when the call returned
        // The payload of the largest kind is in place only once the handler has run: wait, so
        // the next size may reuse the slot.
        poll_until([&] { return g->long_replies == longs; });
      }
    }
  }
  splitc::barrier();
  for (int w = 0; w < P; ++w)
    CHECK(g->long_from[w] == 2 * static_cast<int>(std::size(kLongSizes)));
  // The last (largest) payload from each source is still in place.
  for (int w = 0; w < P; ++w) {
    for (unsigned char* base : {heap_slots, mine}) {
      const std::size_t len = kMaxLong;
      const std::uint64_t s = testvals::mix(len + 1000 * w + 100000 * me + (base == heap_slots));
      CHECK(check_pattern(base + w * kLongSlot + (len % 7), len, s) == len);
    }
  }
  CHECK(g->errors == 0);
  splitc::barrier();

  // 4. Requests sent from request handlers: me -> q -> q+1 -> reply to q.
  constexpr int kForwards = 50;
  for (int i = 0; i < kForwards; ++i) {
    const int q = (me + i) % P;
    splitc::am_request(q, h_forward, static_cast<std::uint64_t>(me),
                       testvals::mix(static_cast<std::uint64_t>(me) + 77));
  }
  // The answers arrive at other processors: poll until the job-wide count is complete.
  auto* counts = reinterpret_cast<int*>(harness::heap() + 64);
  for (;;) {
    splitc::poll();
    *counts = g->forward_done;
    splitc::barrier();
    int total = 0;
    for (int q = 0; q < P; ++q) total += splitc::read(splitc::toglobal(q, counts));
    splitc::barrier();
    CHECK_MSG(total <= kForwards * P, "{} forwarded requests answered, expected {}", total,
              kForwards * P);
    if (total == kForwards * P) break;
  }
  CHECK(g->errors == 0);

  // 5. Global-memory operations issued from request handlers.
  g->words = static_cast<std::uint64_t*>(std::calloc(3 * kMaxProcs, sizeof(std::uint64_t)));
  for (int q = 0; q < P; ++q) g->words[2 * kMaxProcs + q] = word_of(me, q, 3);
  splitc::barrier();
  for (int k = 1; k <= P; ++k)
    splitc::am_request((me + k) % P, h_global_ops,
                       static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(g->words)));
  splitc::store_sync(static_cast<std::int64_t>(P * sizeof(std::uint64_t)));  // the stores to us
  for (int w = 0; w < P; ++w)
    CHECK_MSG(g->words[P + w] == word_of(w, me, 2), "store issued by a handler on {}", w);
  splitc::barrier();  // every handler has run (each requester saw its store)
  splitc::sync();     // our handlers' puts and gets
  splitc::barrier();
  for (int w = 0; w < P; ++w) {
    CHECK_MSG(g->words[w] == word_of(w, me, 1), "put issued by a handler on {}", w);
    CHECK_MSG(g->fetched[w] == word_of(w, me, 3), "get issued by a handler from {}", w);
  }
  splitc::barrier();
  std::free(g->words);
  std::free(mine);
  return harness::pass("active_messages");
}
