// The backend conformance suite: the porting boundary's contract checked on
// the backend directly (its own calls, with the core's dispatcher as the
// sink), then the core's composed forms on top of it. Every processor talks
// to every processor, itself included (loopback), at whatever P the job has.
//
//   short        every argument count 0..caps.max_args, a reply of each count
//   medium/long  sizes 0, 1, 8, odd, the declared maximum (when the form exists)
//   pressure     a flood without polling: no_resource is back-pressure, never a
//                loss or a duplicate; order per pair is checked when caps.ordered
//   no nesting   a send from inside a handler never delivers another message
//   zero copy    request_long_zero_copy / reply_long_zero_copy (when
//                has_zero_copy_long): the payload is the source as it was at the
//                send, each source counter comes back to zero, and a source
//                overwritten after that leaves what arrived alone
//   rma          rma_put/rma_get (when has_rma) against what the owner holds;
//                rma_flush completes a put (has_rma_flush); a get that
//                completes in its call leaves its counter (has_rma_get_in_call);
//                rma_store's bytes arrive whole and count toward the receiver's
//                store_sync, and the core's stores take it (has_rma_store)
//   atomics      native_atomic (when has_native_atomics): every processor's
//                fetch-adds, swaps and compare-swaps on words of processor 0 add
//                up, 32-bit ones leave the next word alone, and the core's
//                atomics on segment words (the owner's own included) take it
//   composed     the core's am_request at 0..8 words, medium and long at the
//                core's limits, whatever the backend carries natively
//   lent queue   a flood of get-like requests whose long replies lend their
//                source (detail::reply_lending_source): a reply the backend
//                has no room for waits in the core's queue holding a pointer
//                to the source, counted on sources_lent, never a copy; every
//                reply's bytes arrive, and the count comes back to zero
#include "harness.hpp"

#include <splitc/detail/messaging.hpp>
#include <splitc/splitc.hpp>

#include <array>
#include <cstring>
#include <vector>

namespace {

using splitc::am_message;
using splitc::am_status;
using splitc::am_word;
using splitc::handler_id;
using splitc::proc_t;
using B = splitc::active_backend;
constexpr auto caps = B::caps;

splitc::detail::context& core() { return splitc::detail::ctx(); }
/// The backend, typed through a template parameter so that calls of optional
/// members sit in templates, where `if constexpr` discards them when absent.
template <class Backend>
Backend& layer() {
  return core().backend;
}

am_word pattern(proc_t from, int form, int i) {
  return 0x9e3779b97f4a7c15ULL * static_cast<am_word>(from + 1) ^
         static_cast<am_word>(form) << 40 ^ static_cast<am_word>(i) * 0x10001ULL;
}
unsigned char byte_pattern(proc_t from, std::size_t len, std::size_t i) {
  return static_cast<unsigned char>(from * 31 + len * 7 + i * 13 + 1);
}

// ---- state the handlers update ----
// One per processor, also where processors share one process (harness.hpp).
struct handler_state {
  int replies_seen = 0;
  int requests_seen = 0;
  bool in_handler = false;
  bool nested = false;
  // Per source: sequence numbers, in arrival order.
  std::vector<std::vector<std::uint64_t>> flood_seen;
  // Sources of zero-copy replies the backend has not finished reading.
  splitc::counter reply_sources_lent;
  // Lent queue: replies that waited in the core's queue, and copies found there.
  int lent_queued = 0;
  int copies_queued = 0;
};
splitc::per_processor<handler_state> state;
// The same on every processor (register_handler checks it): plain statics.
handler_id h_short, h_short_reply, h_medium, h_medium_reply, h_long, h_long_reply,
    h_long_lent, h_flood, h_nest, h_nest_reply, h_composed, h_composed_reply, h_lent_get,
    h_lent_get_reply;

/// Wait while polling through the core (the backend's poll with the core's sink).
template <class Done>
void wait_for(Done done) {
  while (!done()) splitc::poll();
}

/// The backend's send calls, retried (with polling) while they say no_resource.
template <class Send>
void send_direct(Send send) {
  while (send() != am_status::ok) splitc::poll();
}

void enter() {
  if (state->in_handler) state->nested = true;
  state->in_handler = true;
}
void leave() { state->in_handler = false; }

// Short: the request carries n words; the reply the same words, reversed.
void on_short(const am_message& m) {
  enter();
  CHECK(m.is_request && m.kind == splitc::am_kind::short_msg);
  const int n = m.nargs;
  for (int i = 0; i < n; ++i) CHECK_MSG(m.args[i] == pattern(m.source, n, i), "word {} of {}", i, n);
  std::array<am_word, splitc::am_max_args> back{};
  for (int i = 0; i < n; ++i) back[static_cast<std::size_t>(i)] = m.args[n - 1 - i];
  ++state->requests_seen;
  if (core().backend.reply_short(m, h_short_reply, back.data(), n) != am_status::ok)
    splitc::detail::reply(core(), m, splitc::am_kind::short_msg, h_short_reply, back.data(), n);
  leave();
}
void on_short_reply(const am_message& m) {
  enter();
  CHECK(!m.is_request);
  const int n = m.nargs;
  for (int i = 0; i < n; ++i) CHECK(m.args[i] == pattern(splitc::myproc(), n, n - 1 - i));
  ++state->replies_seen;
  leave();
}

void check_payload(const am_message& m, proc_t from) {
  const auto* p = static_cast<const unsigned char*>(m.payload);
  CHECK(m.length == 0 || p != nullptr);
  for (std::size_t i = 0; i < m.length; ++i)
    CHECK_MSG(p[i] == byte_pattern(from, m.length, i), "byte {} of {}", i, m.length);
}

template <class Backend = B>
void on_medium(const am_message& m) {
  enter();
  CHECK(m.is_request && m.kind == splitc::am_kind::medium_msg && m.nargs == static_cast<int>(m.args[0]) + 1);
  check_payload(m, m.source);
  ++state->requests_seen;
  if constexpr (splitc::has_medium_messages<Backend>) {
    // Echo the payload; the reply's pattern is the requester's.
    if (layer<Backend>().reply_medium(m, h_medium_reply, m.args, m.nargs, m.payload, m.length) !=
        am_status::ok)
      splitc::detail::reply(core(), m, splitc::am_kind::medium_msg, h_medium_reply, m.args,
                            m.nargs, m.payload, m.length);
  }
  leave();
}
void on_medium_reply(const am_message& m) {
  enter();
  CHECK(!m.is_request && m.kind == splitc::am_kind::medium_msg);
  check_payload(m, splitc::myproc());
  ++state->replies_seen;
  leave();
}

// Long: deposited at the address the sender named (in the receiver's segment).
template <class Backend = B>
void on_long(const am_message& m) {
  enter();
  CHECK(m.is_request && m.kind == splitc::am_kind::long_msg && m.nargs == 1);
  CHECK(m.payload == reinterpret_cast<void*>(static_cast<std::uintptr_t>(m.args[0])));
  check_payload(m, m.source);
  ++state->requests_seen;
  if constexpr (splitc::has_long_messages<Backend>) {
    // Back into the requester's segment, at the same place.
    if (layer<Backend>().reply_long(m, h_long_reply, m.args, 1, m.payload, m.length, m.payload) !=
        am_status::ok)
      splitc::detail::reply(core(), m, splitc::am_kind::long_msg, h_long_reply, m.args, 1,
                            m.payload, m.length, m.payload);
  }
  leave();
}
// Zero-copy long: as on_long, the reply lending its source (the landed payload).
template <class Backend = B>
void on_long_lent(const am_message& m) {
  enter();
  CHECK(m.is_request && m.kind == splitc::am_kind::long_msg && m.nargs == 1);
  check_payload(m, m.source);
  ++state->requests_seen;
  if constexpr (splitc::has_zero_copy_long<Backend>) {
    splitc::counter& lent = state->reply_sources_lent;
    lent.add_local(1);
    if (layer<Backend>().reply_long_zero_copy(m, h_long_reply, m.args, 1, m.payload, m.length,
                                              m.payload, lent) != am_status::ok) {
      lent.add_local(-1);
      splitc::detail::reply(core(), m, splitc::am_kind::long_msg, h_long_reply, m.args, 1,
                            m.payload, m.length, m.payload);
    }
  }
  leave();
}
void on_long_reply(const am_message& m) {
  enter();
  CHECK(!m.is_request && m.kind == splitc::am_kind::long_msg);
  ++state->replies_seen;
  leave();
}

void on_flood(const am_message& m) {
  enter();
  state->flood_seen[static_cast<std::size_t>(m.source)].push_back(m.args[0]);
  leave();
}

// A request handler that sends (a reply and a request through the core): no
// other handler may run meanwhile.
void on_nest(const am_message& m) {
  enter();
  splitc::am_reply(m, h_nest_reply, m.args[0]);
  splitc::am_request(m.source, h_nest_reply, m.args[0] + 1);
  ++state->requests_seen;
  leave();
}
void on_nest_reply(const am_message&) {
  enter();
  ++state->replies_seen;
  leave();
}

// The core's forms: args carry (form, count, words...), payload a pattern.
void on_composed(const am_message& m) {
  enter();
  for (int i = 0; i < m.nargs; ++i) CHECK(m.args[i] == pattern(m.source, 100 + m.nargs, i));
  if (m.kind != splitc::am_kind::short_msg) check_payload(m, m.source);
  ++state->requests_seen;
  if (m.kind == splitc::am_kind::medium_msg) {
    // A reply as large as the request: composed where the backend cannot carry it.
    splitc::detail::reply(core(), m, splitc::am_kind::medium_msg, h_composed_reply, m.args,
                          m.nargs, m.payload, m.length);
  } else {
    splitc::am_reply(m, h_composed_reply);
  }
  leave();
}
void on_composed_reply(const am_message& m) {
  enter();
  if (m.kind == splitc::am_kind::medium_msg) check_payload(m, splitc::myproc());
  ++state->replies_seen;
  leave();
}

// Lent queue: a get-like request (dst, len) answered from this processor's source region
// with the source lent, as the core's get does; what waits in the core's queue is inspected.
std::size_t lent_source_offset() {
  return (caps.max_long + 64) * static_cast<std::size_t>(splitc::procs());
}
void on_lent_get(const am_message& m) {
  enter();
  ++state->requests_seen;
  splitc::detail::context& c = core();
  const unsigned char* src = harness::heap() + lent_source_offset();
  splitc::detail::reply_lending_source(c, m, h_lent_get_reply, nullptr, 0, src, m.args[1],
                                       reinterpret_cast<void*>(static_cast<std::uintptr_t>(m.args[0])),
                                       c.sources_lent);
  // Every reply of ours waiting in the queue must hold the source, lent: none a copy.
  int lent = 0;
  for (const splitc::detail::pending_message& q : c.pending) {
    if (q.handler != h_lent_get_reply) continue;
    ++lent;
    if (q.source_free != &c.sources_lent || q.lent_source != src || !q.payload.empty() ||
        q.bytes() != m.args[1])
      ++state->copies_queued;
  }
  CHECK_MSG(c.sources_lent.value() >= lent,
            "lent queue: {} of these replies queued but sources_lent is {} (queued as copies?)",
            lent, c.sources_lent.value());
  if (lent > state->lent_queued) state->lent_queued = lent;
  leave();
}
void on_lent_get_reply(const am_message& m) {
  enter();
  CHECK(!m.is_request && m.kind == splitc::am_kind::long_msg);
  ++state->replies_seen;
  leave();
}

/// Everyone sends `per_peer` requests to everyone (itself too) with `send`, then
/// waits for its replies and for everyone else.
template <class Send>
void round(const char* what, int per_peer, Send send) {
  state->replies_seen = state->requests_seen = 0;
  splitc::barrier();
  for (proc_t q = 0; q < splitc::procs(); ++q)
    for (int k = 0; k < per_peer; ++k) send(q, k);
  const int expected = per_peer * splitc::procs();
  wait_for([&] { return state->replies_seen == expected; });
  splitc::barrier();
  CHECK_MSG(state->requests_seen == expected, "{}: {} requests handled, {} expected", what,
            state->requests_seen, expected);
  CHECK_MSG(!state->nested, "{}: a handler ran inside another handler", what);
}

std::vector<std::size_t> sizes_up_to(std::size_t max) {
  std::vector<std::size_t> s{0, 1, 8};
  if (max > 64) s.push_back(max / 2 + 3);
  s.push_back(max);
  return s;
}

void short_forms() {
  for (int n = 0; n <= caps.max_args; ++n) {
    round("short", 1, [&](proc_t q, int) {
      std::array<am_word, splitc::am_max_args> a{};
      for (int i = 0; i < n; ++i) a[static_cast<std::size_t>(i)] = pattern(splitc::myproc(), n, i);
      send_direct([&] { return core().backend.request_short(q, h_short, a.data(), n); });
    });
  }
}

template <class Backend = B>
void medium_forms() {
  if constexpr (splitc::has_medium_messages<Backend>) {
    for (std::size_t len : sizes_up_to(caps.max_medium)) {
      std::vector<unsigned char> payload(len);
      for (std::size_t i = 0; i < len; ++i) payload[i] = byte_pattern(splitc::myproc(), len, i);
      for (int n : {0, caps.max_args - 1}) {
        round("medium", 1, [&](proc_t q, int) {
          std::array<am_word, splitc::am_max_args> a{};
          a[0] = static_cast<am_word>(n);
          send_direct([&] {
            return layer<Backend>().request_medium(q, h_medium, a.data(), n + 1, payload.data(), len);
          });
        });
      }
    }
  }
}

template <class Backend = B>
void long_forms() {
  if constexpr (splitc::has_long_messages<Backend>) {
    // Each sender has its own slot in every receiver's segment.
    const std::size_t slot = caps.max_long + 64;
    CHECK(slot * static_cast<std::size_t>(splitc::procs()) <= harness::heap_size());
    for (std::size_t len : sizes_up_to(caps.max_long)) {
      std::vector<unsigned char> payload(len);
      for (std::size_t i = 0; i < len; ++i) payload[i] = byte_pattern(splitc::myproc(), len, i);
      round("long", 1, [&](proc_t q, int) {
        void* dst = harness::heap() + slot * static_cast<std::size_t>(splitc::myproc());
        const am_word a[1] = {reinterpret_cast<std::uintptr_t>(dst)};
        send_direct([&] {
          return layer<Backend>().request_long(q, h_long, a, 1, payload.data(), len, dst);
        });
      });
    }
  }
}

template <class Backend = B>
void zero_copy_long() {
  if constexpr (splitc::has_zero_copy_long<Backend>) {
    const std::size_t slot = caps.max_long + 64;
    const proc_t me = splitc::myproc();
    for (std::size_t len : sizes_up_to(caps.max_long)) {
      std::vector<unsigned char> payload(len);
      for (std::size_t i = 0; i < len; ++i) payload[i] = byte_pattern(me, len, i);
      splitc::counter source_free;
      round("zero-copy long", 1, [&](proc_t q, int) {
        void* dst = harness::heap() + slot * static_cast<std::size_t>(me);
        const am_word a[1] = {reinterpret_cast<std::uintptr_t>(dst)};
        send_direct([&] {
          source_free.add_local(1);  // as the core does before the call
          const am_status s = layer<Backend>().request_long_zero_copy(
              q, h_long_lent, a, 1, payload.data(), len, dst, source_free);
          if (s != am_status::ok) source_free.add_local(-1);  // nothing started
          return s;
        });
      });
      wait_for([&] {
        return source_free.value() == 0 && state->reply_sources_lent.value() == 0;
      });
      // The sources are ours again: overwriting them changes nothing that arrived.
      std::memset(payload.data(), 0xee, len);
      splitc::barrier();
      for (proc_t q = 0; q < splitc::procs(); ++q) {
        const unsigned char* got = harness::heap() + slot * static_cast<std::size_t>(q);
        for (std::size_t i = 0; i < len; ++i)
          CHECK_MSG(got[i] == byte_pattern(q, len, i), "zero copy: byte {} of {} from {}", i,
                    len, q);
      }
      splitc::barrier();
    }
  }
}

void pressure() {
  constexpr int per_peer = 5000;
  const auto procs = static_cast<std::size_t>(splitc::procs());
  state->flood_seen.assign(procs, {});
  splitc::barrier();
  long refused = 0;
  for (int k = 0; k < per_peer; ++k) {
    for (proc_t q = 0; q < splitc::procs(); ++q) {
      const am_word a[1] = {static_cast<am_word>(k)};
      // Back-pressure: the backend may refuse; nothing is lost or sent twice by that.
      while (core().backend.request_short(q, h_flood, a, 1) != am_status::ok) {
        ++refused;
        splitc::poll();
      }
    }
  }
  wait_for([&] {
    for (const auto& s : state->flood_seen)
      if (s.size() < per_peer) return false;
    return true;
  });
  splitc::barrier();
  for (std::size_t q = 0; q < procs; ++q) {
    auto& seen = state->flood_seen[q];
    CHECK_MSG(seen.size() == per_peer, "from {}: {} messages, {} sent", q, seen.size(), per_peer);
    if (caps.ordered) {
      for (std::size_t i = 0; i < seen.size(); ++i)
        CHECK_MSG(seen[i] == i, "caps.ordered, but message {} from {} arrived {}th", seen[i], q, i);
    }
    std::vector<bool> got(per_peer, false);
    for (auto s : seen) {
      CHECK_MSG(s < per_peer && !got[s], "from {}: message {} twice or out of range", q, s);
      got[s] = true;
    }
  }
  if (splitc::myproc() == 0)
    fmt::print("conformance: {} refusals (no_resource) in a flood of {} per pair\n", refused,
               per_peer);
}

void no_nesting() {
  constexpr int per_peer = 20;
  state->replies_seen = state->requests_seen = 0;
  splitc::barrier();
  for (proc_t q = 0; q < splitc::procs(); ++q)
    for (int k = 0; k < per_peer; ++k) splitc::am_request(q, h_nest, static_cast<am_word>(k));
  // Each request comes back twice: its reply and the request its handler sent.
  wait_for([&] { return state->replies_seen == 2 * per_peer * splitc::procs(); });
  splitc::barrier();
  CHECK_MSG(state->requests_seen == per_peer * splitc::procs(),
            "nesting: {} requests handled, {} expected",
            state->requests_seen, per_peer * splitc::procs());
  CHECK_MSG(!state->nested, "nesting: a handler ran inside another handler");
}

/// rma_store (has_rma_store): each length arrives whole at the right
/// neighbour, and the receiver's store_sync (the core adds what
/// rma_stored_bytes reports after each poll) counts exactly its bytes; the
/// core's store into the segment takes the member, not a message.
template <class Backend>
void rma_stores(Backend& b, unsigned char* mine, std::size_t region) {
  const proc_t me = splitc::myproc(), p = splitc::procs();
  const proc_t right = (me + 1) % p, left = (me + p - 1) % p;
  for (std::size_t len : {std::size_t{1}, std::size_t{8}, std::size_t{1000}, region}) {
    std::memset(mine, 0, region);
    splitc::barrier();
    std::vector<unsigned char> data(len);
    for (std::size_t i = 0; i < len; ++i) data[i] = byte_pattern(me, len, i);
    // The sender's count, as the core's store keeps it (store_sync takes the
    // bytes off the receiver's received and sent counts; all_store_sync below
    // sums them).
    core().store_sent_bytes.add_local(static_cast<std::int64_t>(len));
    send_direct([&] { return b.rma_store(right, mine, data.data(), len); });
    splitc::store_sync(static_cast<std::int64_t>(len));
    for (std::size_t i = 0; i < len; ++i) CHECK(mine[i] == byte_pattern(left, len, i));
    if (len < region) CHECK(mine[len] == 0);
    CHECK(!splitc::is_store_sync(1));  // nothing more was counted
    splitc::barrier();
  }
  if constexpr (requires { b.rma_operations(); }) {
    const std::size_t before = b.rma_operations();
    std::size_t messages = 0;
    if constexpr (requires { b.messages_sent(); }) messages = b.messages_sent();
    auto* word = reinterpret_cast<std::uint64_t*>(mine);
    splitc::store(splitc::toglobal(right, word), static_cast<std::uint64_t>(1000 + me));
    // A store to itself is a copy, and so is one into a segment mapped here
    // (direct_address: the direct path goes first).
    const bool copied = splitc::direct_pointer(splitc::toglobal(right, word)) != nullptr;
    const std::size_t expected = copied ? 0 : 1;
    CHECK_MSG(b.rma_operations() == before + expected,
              "a store: {} one-sided operations, {} expected", b.rma_operations() - before,
              expected);
    if constexpr (requires { b.messages_sent(); })
      CHECK_MSG(b.messages_sent() == messages, "a store sent {} messages, none expected",
                b.messages_sent() - messages);
    splitc::all_store_sync();
    CHECK(*word == static_cast<std::uint64_t>(1000 + left));
    splitc::barrier();
  }
}

/// The fewest bytes a backend's rma_reaches accepts in its segment (optional member
/// `rma_min_bytes`, PORTING.md 1.1), else 1.
template <class Backend>
constexpr std::size_t rma_min_bytes = [] {
  if constexpr (requires { Backend::rma_min_bytes; }) return std::size_t{Backend::rma_min_bytes};
  else return std::size_t{1};
}();

template <class Backend = B>
void rma() {
  if constexpr (splitc::has_rma<Backend>) {
    auto& b = layer<Backend>();
    const proc_t me = splitc::myproc(), p = splitc::procs();
    const proc_t right = (me + 1) % p;
    constexpr std::size_t region = 1 << 20;
    unsigned char* mine = harness::heap();  // the same address everywhere
    for (std::size_t len : {std::size_t{1}, std::size_t{8}, std::size_t{1000}, region}) {
      std::memset(mine, 0, region);
      splitc::barrier();
      std::vector<unsigned char> data(len);
      for (std::size_t i = 0; i < len; ++i) data[i] = byte_pattern(me, len, i);
      // A backend may leave short transfers to active messages (rma_min_bytes, PORTING.md);
      // its RMA members still do them when called.
      CHECK(b.rma_reaches(right, mine, len) == (len >= rma_min_bytes<Backend>));
      splitc::counter done;
      done.add_local(1);
      send_direct([&] { return b.rma_put(right, mine, data.data(), len, done); });
      // rma_flush completes the put and its counter without a poll.
      if constexpr (splitc::has_rma_flush<Backend>) {
        b.rma_flush();
        CHECK(done.value() == 0);
      }
      wait_for([&] { return done.value() == 0; });
      splitc::barrier();
      // What the left neighbour put is here, and nothing beyond it.
      const proc_t left = (me + p - 1) % p;
      for (std::size_t i = 0; i < len; ++i) CHECK(mine[i] == byte_pattern(left, len, i));
      if (len < region) CHECK(mine[len] == 0);
      // And a get of the right neighbour's region gives what I put there. A
      // backend whose get completes in its call (has_rma_get_in_call) leaves
      // the counter alone; any other subtracts the 1 added here.
      std::vector<unsigned char> back(len, 0);
      if constexpr (!splitc::has_rma_get_in_call<Backend>) done.add_local(1);
      send_direct([&] { return b.rma_get(back.data(), right, mine, len, done); });
      if constexpr (splitc::has_rma_get_in_call<Backend>) CHECK(done.value() == 0 && back == data);
      wait_for([&] { return done.value() == 0; });
      CHECK(back == data);
      splitc::barrier();
    }
    // The core's get and put into the segment take the one-sided path where the
    // backend counts its operations (ports/smp's onesided does), unless
    // the segment is mapped here (direct_address), whose loads and stores go first.
    if constexpr (requires { b.rma_operations(); }) {
      const std::size_t before = b.rma_operations();
      std::uint64_t word = 0;
      const auto target = splitc::toglobal(right, reinterpret_cast<std::uint64_t*>(mine));
      splitc::put(target, std::uint64_t{7});
      splitc::get(&word, target);
      splitc::sync();
      const std::size_t expected = splitc::direct_pointer(target) != nullptr ? 0 : 2;
      CHECK_MSG(b.rma_operations() == before + expected, "{} one-sided operations, {} expected",
                b.rma_operations() - before, expected);
      CHECK(word == 7);
      splitc::barrier();
    }
    if constexpr (splitc::has_rma_store<Backend>) rma_stores(b, mine, region);
    // Outside any segment, the layer says it cannot reach.
    int on_stack = 0;
    CHECK(!b.rma_reaches(right, &on_stack, sizeof on_stack) || B::caps.direct_access);
  }
}

template <class Backend = B>
void native_atomics() {
  if constexpr (splitc::has_native_atomics<Backend>) {
    using op = splitc::native_atomic_op;
    auto& b = layer<Backend>();
    const proc_t me = splitc::myproc(), p = splitc::procs();
    constexpr int rounds = 100;
    // Words of processor 0's heap (the same address everywhere): an adder, a
    // compare-swap counter, a swap target, a 32-bit word and its neighbour.
    auto* w64 = reinterpret_cast<std::uint64_t*>(harness::heap());
    auto* w32 = reinterpret_cast<std::uint32_t*>(w64 + 3);
    splitc::barrier();  // nobody still uses the heap for the section before
    if (me == 0) {
      w64[0] = w64[1] = w64[2] = 0;
      w32[0] = 5;
      w32[1] = 0xabcdef01u;
    }
    splitc::barrier();
    // 64-bit words at least; 32-bit ones where the layer says so (not Open
    // MPI's OpenSHMEM before 4.1.5). A layer whose atomics a setting turned off
    // (mpi: SPLITC_MPI_ATOMICS=cpu, the default) reaches none: nothing to check,
    // but every processor must say so alike.
    const bool reaches = b.native_atomic_reaches(0, w64, 8);
    const int reaching = splitc::reduce_to_all(reaches ? 1 : 0, splitc::ops::add{});
    CHECK_MSG(reaching == 0 || reaching == p, "{} of {} processors reach the word", reaching, p);
    if (!reaches) return;
    const bool words32 = b.native_atomic_reaches(0, w32, 4);
    std::uint64_t last = 0;
    for (int i = 0; i < rounds; ++i) {
      const std::uint64_t old = b.native_atomic(0, &w64[0], op::fetch_add, 8, 1, 0);
      CHECK_MSG(i == 0 || old > last, "fetch_add: old value {} after {}", old, last);
      last = old;
      // An increment by compare-swap, retried while others get in first.
      std::uint64_t seen = b.native_atomic(0, &w64[1], op::compare_swap, 8, 0, 0);
      for (;;) {
        const std::uint64_t now = b.native_atomic(0, &w64[1], op::compare_swap, 8, seen, seen + 1);
        if (now == seen) break;
        seen = now;
      }
    }
    // Swaps: every processor's value goes in once; the values taken out are
    // the initial 0 and all but the one left in the word.
    const std::uint64_t mine = 1000 + static_cast<std::uint64_t>(me);
    const std::uint64_t taken = b.native_atomic(0, &w64[2], op::swap, 8, mine, 0);
    CHECK_MSG(taken == 0 || (taken >= 1000 && taken < 1000 + static_cast<std::uint64_t>(p) &&
                             taken != mine),
              "swap: took out {}", taken);
    if (me == 0 && words32) {
      // 32 bits: adding 0xffffffff is subtracting 1; a failed compare-swap
      // stores nothing and answers what is there.
      CHECK(b.native_atomic(0, w32, op::fetch_add, 4, 0xffffffffu, 0) == 5);
      CHECK(b.native_atomic(0, w32, op::compare_swap, 4, 7, 9) == 4);
      CHECK(b.native_atomic(0, w32, op::swap, 4, 0x80000000u, 0) == 4);
    }
    splitc::barrier();
    if (me == 0) {
      const auto total = static_cast<std::uint64_t>(p) * rounds;
      CHECK_MSG(w64[0] == total, "fetch_add: {} after {} additions", w64[0], total);
      CHECK_MSG(w64[1] == total, "compare_swap: {} after {} increments", w64[1], total);
      CHECK(w64[2] >= 1000 && w64[2] < 1000 + static_cast<std::uint64_t>(p));
      CHECK(w32[0] == (words32 ? 0x80000000u : 5u));
      CHECK_MSG(w32[1] == 0xabcdef01u, "a 32-bit atomic changed the next word: {:#x}", w32[1]);
    }
    splitc::barrier();  // processor 0 has read the sums
    // The core's atomics on segment words take the native path, the owner's
    // own included (its CPU atomics would not be atomic with the layer's).
    if constexpr (requires { b.native_atomic_operations(); }) {
      const auto before = b.native_atomic_operations();
      auto* word = reinterpret_cast<std::int64_t*>(&w64[0]);
      const std::int64_t old = splitc::fetch_and_add(splitc::toglobal(proc_t{0}, word), std::int64_t{-1});
      CHECK(old >= 0);
      auto* own = reinterpret_cast<std::int64_t*>(w64 + 5);  // this processor's own word
      *own = 11;
      CHECK(splitc::exchange(splitc::toglobal(me, own), std::int64_t{-3}) == 11);
      CHECK(splitc::cmp_and_swap(splitc::toglobal(me, own), std::int64_t{-3}, std::int64_t{4}) ==
            -3);
      CHECK(*own == 4);
      CHECK_MSG(b.native_atomic_operations() == before + 3, "{} native atomics, 3 expected",
                b.native_atomic_operations() - before);
      splitc::barrier();
      if (me == 0)
        CHECK(w64[0] == static_cast<std::uint64_t>(p) * rounds - static_cast<std::uint64_t>(p));
    }
    splitc::barrier();
    // Outside the segment, or misaligned, the layer says it cannot.
    std::uint64_t on_stack = 0;
    CHECK(!b.native_atomic_reaches(0, &on_stack, 8));
    CHECK(!b.native_atomic_reaches(0, reinterpret_cast<char*>(w64) + 4, 8));
    splitc::barrier();
  }
}

void composed() {
  namespace d = splitc::detail;
  for (int n = 0; n <= splitc::am_max_args; ++n) {
    round("composed short", 1, [&](proc_t q, int) {
      std::array<am_word, splitc::am_max_args> a{};
      for (int i = 0; i < n; ++i) a[static_cast<std::size_t>(i)] = pattern(splitc::myproc(), 100 + n, i);
      d::request(core(), splitc::am_kind::short_msg, q, h_composed, a.data(), n);
    });
  }
  for (std::size_t len : sizes_up_to(d::medium_limit)) {
    std::vector<unsigned char> payload(len);
    for (std::size_t i = 0; i < len; ++i) payload[i] = byte_pattern(splitc::myproc(), len, i);
    for (int n : {0, splitc::am_max_args}) {
      round("composed medium", 2, [&](proc_t q, int) {
        std::array<am_word, splitc::am_max_args> a{};
        for (int i = 0; i < n; ++i) a[static_cast<std::size_t>(i)] = pattern(splitc::myproc(), 100 + n, i);
        d::request(core(), splitc::am_kind::medium_msg, q, h_composed, a.data(), n, payload.data(),
                   len);
      });
    }
  }
  const std::size_t slot = d::long_limit + 64;
  CHECK(slot * static_cast<std::size_t>(splitc::procs()) <= harness::heap_size());
  for (std::size_t len : sizes_up_to(d::long_limit)) {
    std::vector<unsigned char> payload(len);
    for (std::size_t i = 0; i < len; ++i) payload[i] = byte_pattern(splitc::myproc(), len, i);
    round("composed long", 1, [&](proc_t q, int) {
      void* dst = harness::heap() + slot * static_cast<std::size_t>(splitc::myproc());
      d::request(core(), splitc::am_kind::long_msg, q, h_composed, nullptr, 0, payload.data(), len,
                 dst);
    });
  }
}

template <class Backend = B>
void lent_queue() {
  if constexpr (splitc::has_long_messages<Backend>) {
    const std::size_t len = std::min<std::size_t>(caps.max_long, std::size_t{1} << 20);
    CHECK(lent_source_offset() + len <= harness::heap_size());
    const proc_t me = splitc::myproc();
    unsigned char* src = harness::heap() + lent_source_offset();
    for (std::size_t i = 0; i < len; ++i) src[i] = byte_pattern(me, len, i);
    // The replies land outside the segments, as a get into a malloc'd buffer does: where the
    // backend copies into a mapped segment directly it never lacks room, and nothing queues.
    std::vector<std::vector<unsigned char>> landing(static_cast<std::size_t>(splitc::procs()),
                                                    std::vector<unsigned char>(len));
    state->lent_queued = state->copies_queued = 0;
    // Enough replies to fill each backend's room: 8 of the large ones (up to 1 MiB each), 32
    // of the small (2 KiB on shmem, whose queue 8 of them did not reach).
    const int per_peer = len >= (std::size_t{256} << 10) ? 8 : 32;
    round("lent queue", per_peer, [&](proc_t q, int) {
      unsigned char* dst = landing[static_cast<std::size_t>(q)].data();
      const am_word a[2] = {reinterpret_cast<std::uintptr_t>(dst), len};
      splitc::detail::request(core(), splitc::am_kind::short_msg, q, h_lent_get, a, 2);
    });
    wait_for([&] { return core().pending.empty() && core().sources_lent.value() == 0; });
    for (proc_t q = 0; q < splitc::procs(); ++q) {
      const unsigned char* got = landing[static_cast<std::size_t>(q)].data();
      for (std::size_t i = 0; i < len; ++i)
        CHECK_MSG(got[i] == byte_pattern(q, len, i), "lent queue: byte {} of {} from {}", i, len, q);
    }
    CHECK_MSG(state->copies_queued == 0, "lent queue: {} queued replies held a copy or the "
              "wrong source", state->copies_queued);
    const int most = splitc::reduce_to_all(state->lent_queued, splitc::ops::max{});
    if (me == 0)
      fmt::print("conformance: lent queue: {} replies of {} bytes per pair, at most {} waiting "
                 "lent in one processor's queue\n", per_peer, len, most);
    splitc::barrier();
  }
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  h_short = splitc::register_handler(on_short);
  h_short_reply = splitc::register_handler(on_short_reply);
  h_medium = splitc::register_handler(on_medium<>);
  h_medium_reply = splitc::register_handler(on_medium_reply);
  h_long = splitc::register_handler(on_long<>);
  h_long_reply = splitc::register_handler(on_long_reply);
  h_long_lent = splitc::register_handler(on_long_lent<>);
  h_flood = splitc::register_handler(on_flood);
  h_nest = splitc::register_handler(on_nest);
  h_nest_reply = splitc::register_handler(on_nest_reply);
  h_composed = splitc::register_handler(on_composed);
  h_composed_reply = splitc::register_handler(on_composed_reply);
  h_lent_get = splitc::register_handler(on_lent_get);
  h_lent_get_reply = splitc::register_handler(on_lent_get_reply);
  if (splitc::myproc() == 0)
    fmt::print("conformance: backend {}: max_args {}, medium {}, long {}, ordered {}, direct {}, "
               "rma {}, native atomics {}, zero-copy long {}\n", B::name, caps.max_args,
               caps.max_medium, caps.max_long, caps.ordered, caps.direct_access,
               splitc::has_rma<B>, splitc::has_native_atomics<B>, splitc::has_zero_copy_long<B>);
  short_forms();
  medium_forms<>();
  long_forms<>();
  zero_copy_long<>();
  pressure();
  no_nesting();
  rma<>();
  native_atomics<>();
  composed();
  lent_queue<>();
  return harness::pass("conformance");
}
