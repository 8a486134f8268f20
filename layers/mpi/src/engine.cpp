// The point-to-point engine (engine.hpp): credits, the short and long protocols, ordering
// per pair, matching, the unexpected queue.
#include "engine.hpp"

#include <splitc/per_processor.hpp>
#include <splitc/port/env.hpp>
#include <splitc/splitc.hpp>
#include <splitc/wait.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace splitc::mpi {
namespace {

/// A packet that arrived before its turn (a backend that reorders): kept until the earlier
/// ones of its pair have been handled.
struct early_packet {
  std::uint64_t words[6];
  bool is_long;
  std::vector<char> data;
};

/// A granted long send still to be pushed: `bytes` from `from` to `target` at `peer`.
struct push {
  request* r;
  proc_t peer;
  const char* from;
  char* target;
  std::size_t bytes;
  std::uint64_t receiver_side;
};

/// The engine's queues: lists whose nodes are recycled (recycled.hpp).
template <class T>
using queue = std::list<T, recycling_allocator<T>>;
using incoming_queue = queue<std::unique_ptr<incoming>>;

struct state {
  settings config;
  handler_id h_short{}, h_long_header{}, h_credit{}, h_grant{}, h_data{}, h_ack{};
  std::vector<int> credits;                   ///< per receiver
  std::vector<std::uint64_t> next_sequence;   ///< per receiver
  std::vector<std::uint64_t> expected;        ///< per sender
  std::vector<std::map<std::uint64_t, early_packet>> early;  ///< per sender
  std::vector<std::deque<request*>> pending;  ///< per receiver: sends waiting for a credit
  std::size_t pending_count = 0;
  queue<request*> posted;                     ///< receives, in the order they were posted
  incoming_queue unexpected;                  ///< in arrival order
  incoming_queue in_flight;                   ///< matched, data still arriving
  std::size_t unexpected_bytes = 0;           ///< eager long grants held in the queue
  /// Granted long sends whose data the main line pushes (see on_grant), in grant order; and
  /// how deep this processor is in the layer's own waits.
  queue<push> pushes;
  int waiting = 0;
};

splitc::per_processor<std::unique_ptr<state>> the_state;

state& st() { return *the_state.get(); }

bool matches(const request& r, const incoming& m) {
  return r.context == m.context && (r.peer == MPI_ANY_SOURCE || r.peer == m.source) &&
         (r.tag == MPI_ANY_TAG || r.tag == m.tag);
}

void complete_receive(request& r, const incoming& m, std::size_t delivered) {
  r.status.MPI_SOURCE = m.source;
  r.status.MPI_TAG = m.tag;
  r.status.splitc_bytes = delivered;
  r.status.MPI_ERROR = m.length > r.bytes ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
  r.matched = nullptr;
  r.complete = true;
}

void grant(state& s, incoming& m, void* target, std::size_t bytes) {
  m.granted = true;
  m.granted_bytes = bytes;
  am_request(static_cast<proc_t>(m.source), s.h_grant, m.sender_request,
             reinterpret_cast<std::uintptr_t>(target), bytes, reinterpret_cast<std::uintptr_t>(&m));
}

void acknowledge_if_sync(state& s, const incoming& m) {
  if (m.mode == send_mode::sync) am_request(static_cast<proc_t>(m.source), s.h_ack, m.sender_request);
}

/// Remove `m` from `from` and hand back its ownership.
std::unique_ptr<incoming> take(incoming_queue& from, const incoming* m) {
  for (auto it = from.begin(); it != from.end(); ++it) {
    if (it->get() == m) {
      std::unique_ptr<incoming> owned = std::move(*it);
      from.erase(it);
      return owned;
    }
  }
  return nullptr;
}

/// Receive `r` meets message `m` (owned by the caller until this returns; long messages whose
/// data is still to come move to the in-flight list).
void match(state& s, request& r, std::unique_ptr<incoming> m) {
  acknowledge_if_sync(s, *m);
  const std::size_t fits = std::min(m->length, r.bytes);
  if (!m->is_long || m->data_complete) {
    if (fits > 0) std::memcpy(r.receive_buffer, m->is_long ? m->temp.get() : m->short_data(), fits);
    if (m->is_long) s.unexpected_bytes -= m->length;
    complete_receive(r, *m, fits);
    return;
  }
  r.matched = m.get();
  m->receive = &r;
  if (!m->granted) grant(s, *m, r.receive_buffer, fits);  // straight into the user's buffer
  s.in_flight.push_back(std::move(m));
}

/// A packet's turn has come: match it against the posted receives or queue it.
void handle(state& s, int source, const std::uint64_t* w, bool is_long, const void* data) {
  auto m = std::make_unique<incoming>();
  m->context = static_cast<int>(w[0]);
  m->tag = static_cast<int>(static_cast<std::int64_t>(w[1]));
  m->mode = static_cast<send_mode>(w[3]);
  m->sender_request = w[4];
  m->length = static_cast<std::size_t>(w[5]);
  m->source = source;
  m->is_long = is_long;
  for (auto it = s.posted.begin(); it != s.posted.end(); ++it) {
    if (!matches(**it, *m)) continue;
    request& r = **it;
    s.posted.erase(it);
    if (!is_long) {
      acknowledge_if_sync(s, *m);
      const std::size_t fits = std::min(m->length, r.bytes);
      if (fits > 0) std::memcpy(r.receive_buffer, data, fits);
      complete_receive(r, *m, fits);
      return;
    }
    match(s, r, std::move(m));
    return;
  }
  // Unexpected: short data copied out at once (the slot is the only flow control); a long
  // message granted an eager temporary while the queue holds less than the cap, in the
  // segment where it has room (landing.hpp: one copy on the backends that map it). A long
  // message that finds no memory waits for its receive.
  if (!is_long) {
    if (m->length > sizeof m->small)
      m->temp.reset(static_cast<char*>(std::malloc(m->length)));
    if (m->length > sizeof m->small && !m->temp) {
      fatal_error(fmt::format("MPI: no memory for an unexpected message of {} bytes from "
                              "processor {}", m->length, source));
    }
    if (m->length > 0) std::memcpy(m->short_data(), data, m->length);
    m->data_complete = true;
  } else if (s.unexpected_bytes + m->length <= s.config.unexpected_cap) {
    m->temp.reset(static_cast<char*>(landing_alloc(m->length)));
    if (m->temp) {
      s.unexpected_bytes += m->length;
      grant(s, *m, m->temp.get(), m->length);
    }
  }
  s.unexpected.push_back(std::move(m));
}

/// A header (short or long) from `source`: handled in the pair's sequence order.
void arrive(state& s, int source, const std::uint64_t* w, bool is_long, const void* data) {
  const std::uint64_t sequence = w[2];
  if (sequence != s.expected[source]) {
    early_packet p;
    std::copy(w, w + 6, p.words);
    p.is_long = is_long;
    if (!is_long && w[5] > 0) p.data.assign(static_cast<const char*>(data), static_cast<const char*>(data) + w[5]);
    s.early[source].emplace(sequence, std::move(p));
    return;
  }
  handle(s, source, w, is_long, data);
  ++s.expected[source];
  auto& waiting = s.early[source];
  for (auto it = waiting.find(s.expected[source]); it != waiting.end();
       it = waiting.find(s.expected[source])) {
    early_packet p = std::move(it->second);
    waiting.erase(it);
    handle(s, source, p.words, p.is_long, p.data.data());
    ++s.expected[source];
  }
}

std::uint64_t word(const am_message& m, int i) { return m.args[i]; }

void on_short(const am_message& msg) {
  state& s = st();
  std::uint64_t w[6];
  for (int i = 0; i < 6; ++i) w[i] = word(msg, i);
  arrive(s, static_cast<int>(msg.source), w, false, msg.payload);
  am_reply(msg, s.h_credit);
}

void on_long_header(const am_message& msg) {
  state& s = st();
  std::uint64_t w[6];
  for (int i = 0; i < 6; ++i) w[i] = word(msg, i);
  arrive(s, static_cast<int>(msg.source), w, true, nullptr);
  am_reply(msg, s.h_credit);
}

void on_credit(const am_message& msg) { ++st().credits[msg.source]; }

void finish_send_part(request& r) {
  if (!r.awaiting_grant && !r.awaiting_ack) r.complete = true;
}

/// Send a granted long message's data: in pieces of the backend's own long messages.
void push_data(state& s, const push& p) {
  if (p.bytes == 0) am_request(p.peer, s.h_data, p.receiver_side, std::uint64_t{0});
  for (std::size_t off = 0; off < p.bytes; off += am_long_piece) {
    const std::size_t n = std::min(am_long_piece, p.bytes - off);
    am_request_long(p.peer, s.h_data, p.from + off, n, p.target + off, p.receiver_side,
                    static_cast<std::uint64_t>(n));
  }
  p.r->awaiting_grant = false;
  finish_send_part(*p.r);
}

/// On the sender: the receiver's grant. While this processor is in one of the layer's own
/// waits, the wait's loop pushes the data from the main line (push_granted), where a send
/// that finds the backend full waits for room; anywhere else -- a barrier, a computation
/// that polls -- this handler pushes it at once, so that a sender busy elsewhere still
/// delivers, and what the backend cannot take yet the core queues, copied. The send is done
/// once its data are pushed, unless a synchronous send still awaits its match.
void on_grant(const am_message& msg) {
  state& s = st();
  auto* r = reinterpret_cast<request*>(static_cast<std::uintptr_t>(word(msg, 0)));
  const push p{r, msg.source, static_cast<const char*>(r->send_buffer),
               reinterpret_cast<char*>(static_cast<std::uintptr_t>(word(msg, 1))),
               static_cast<std::size_t>(word(msg, 2)), word(msg, 3)};
  if (s.waiting > 0)
    s.pushes.push_back(p);
  else
    push_data(s, p);
}

/// The main line's half of on_grant: push every queued grant's data (more may be queued by
/// the polls of the sends' own waits for room; they are pushed in turn).
void push_granted(state& s) {
  while (!s.pushes.empty()) {
    const push p = s.pushes.front();
    s.pushes.pop_front();
    push_data(s, p);
  }
}

/// On the receiver: granted bytes have landed.
void on_data(const am_message& msg) {
  state& s = st();
  auto* m = reinterpret_cast<incoming*>(static_cast<std::uintptr_t>(word(msg, 0)));
  m->arrived += static_cast<std::size_t>(word(msg, 1));
  if (m->arrived < m->granted_bytes || m->data_complete) return;
  m->data_complete = true;
  request* r = m->receive;
  if (r == nullptr) return;  // unexpected: a receive will take it from the queue
  const std::size_t fits = std::min(m->length, r->bytes);
  if (m->temp) {  // granted eagerly, matched since: copy out
    if (fits > 0) std::memcpy(r->receive_buffer, m->temp.get(), fits);
    s.unexpected_bytes -= m->length;
  }
  complete_receive(*r, *m, fits);
  take(s.in_flight, m);
}

void on_ack(const am_message& msg) {
  auto& r = *reinterpret_cast<request*>(static_cast<std::uintptr_t>(word(msg, 0)));
  r.awaiting_ack = false;
  finish_send_part(r);
}

void transmit(state& s, request& r) {
  const auto dest = static_cast<std::size_t>(r.peer);
  --s.credits[dest];
  const std::uint64_t sequence = s.next_sequence[dest]++;
  const auto tag = static_cast<std::uint64_t>(static_cast<std::int64_t>(r.tag));
  const auto self = reinterpret_cast<std::uintptr_t>(&r);
  r.awaiting_ack = r.mode == send_mode::sync;
  if (r.bytes <= s.config.short_max) {
    static const char nothing = 0;
    am_request_medium(static_cast<proc_t>(dest), s.h_short,
                      r.send_buffer != nullptr ? r.send_buffer : &nothing, r.bytes,
                      static_cast<std::uint64_t>(r.context), tag, sequence,
                      static_cast<std::uint64_t>(r.mode), self, static_cast<std::uint64_t>(r.bytes));
    r.awaiting_grant = false;
  } else {
    r.awaiting_grant = true;
    am_request(static_cast<proc_t>(dest), s.h_long_header, static_cast<std::uint64_t>(r.context),
               tag, sequence, static_cast<std::uint64_t>(r.mode), self,
               static_cast<std::uint64_t>(r.bytes));
  }
  finish_send_part(r);
}

void send_pending(state& s) {
  if (s.pending_count == 0) return;
  for (std::size_t dest = 0; dest < s.pending.size(); ++dest) {
    auto& queue = s.pending[dest];
    while (!queue.empty() && s.credits[dest] > 0) {
      request* r = queue.front();
      queue.pop_front();
      --s.pending_count;
      transmit(s, *r);
    }
  }
}

}  // namespace

/// The default threshold of the short protocol: 4 KiB (Open MPI's eager limit between the
/// processes of one host), or the backend's own medium limit where it is smaller (above it
/// the core composes a medium message of short ones, a packet per few words); without medium
/// messages, the seed's 256 bytes.
constexpr std::size_t default_short_max() {
  if constexpr (has_medium_messages<active_backend>)
    return std::min<std::size_t>(4096, active_backend::caps.max_medium);
  else
    return 256;
}

settings settings_from_environment() {
  namespace env = splitc::port::env;
  settings s{};
  s.short_max = env::smpi_short_max.get(default_short_max());
  if (s.short_max > am_medium_limit) {
    fatal_error(fmt::format("SPLITC_SMPI_SHORT_MAX={} is above this backend's medium messages "
                            "({} bytes), which carry a short message whole",
                            s.short_max, am_medium_limit));
  }
  const long slots = env::smpi_slots.get();
  if (slots < 1 || slots > 1024)
    fatal_error(fmt::format("SPLITC_SMPI_SLOTS={} is not in 1..1024", slots));
  s.credits = static_cast<int>(slots);
  s.unexpected_cap = env::smpi_unexpected_max.get();
  return s;
}

void start_engine(const settings& config) {
  auto& slot = the_state.get();
  slot = std::make_unique<state>();
  state& s = *slot;
  s.config = config;
  const auto p = static_cast<std::size_t>(procs());
  s.credits.assign(p, config.credits);
  s.next_sequence.assign(p, 0);
  s.expected.assign(p, 0);
  s.early.resize(p);
  s.pending.resize(p);
  s.h_short = register_handler(on_short);
  s.h_long_header = register_handler(on_long_header);
  s.h_credit = register_handler(on_credit);
  s.h_grant = register_handler(on_grant);
  s.h_data = register_handler(on_data);
  s.h_ack = register_handler(on_ack);
}

void stop_engine() { the_state.get().reset(); }

void start_send(request& r) {
  r.active = true;
  r.complete = false;
  r.awaiting_grant = r.awaiting_ack = false;
  r.status = MPI_Status{};
  if (r.peer == MPI_PROC_NULL) {
    r.complete = true;
    return;
  }
  state& s = st();
  const auto dest = static_cast<std::size_t>(r.peer);
  if (!s.pending[dest].empty() || s.credits[dest] == 0) {
    s.pending[dest].push_back(&r);  // never block in a send: progress sends it
    ++s.pending_count;
    return;
  }
  transmit(s, r);
}

void start_receive(request& r) {
  r.active = true;
  r.complete = false;
  r.matched = nullptr;
  r.status = MPI_Status{};
  if (r.peer == MPI_PROC_NULL) {
    r.status.MPI_SOURCE = MPI_PROC_NULL;
    r.status.MPI_TAG = MPI_ANY_TAG;
    r.complete = true;
    return;
  }
  state& s = st();
  for (auto it = s.unexpected.begin(); it != s.unexpected.end(); ++it) {
    if (!matches(r, **it)) continue;
    std::unique_ptr<incoming> m = std::move(*it);
    s.unexpected.erase(it);
    match(s, r, std::move(m));
    return;
  }
  s.posted.push_back(&r);
}

void progress() {
  splitc::poll();
  send_pending(st());
}

void move_queued_sends() {
  state& s = st();
  push_granted(s);
  send_pending(s);
}

void enter_wait() noexcept { ++st().waiting; }
void leave_wait() noexcept { --st().waiting; }

void wait_for(request& r, const char* what) {
  wait_in_layer(what, [&] { return r.complete; });
}

void drain_pending_sends() {
  state& s = st();
  wait_in_layer("an MPI collective (sending the point-to-point messages queued first)",
                [&] { return s.pending_count == 0; });
}

void quiesce() {
  state& s = st();
  wait_in_layer("MPI_Finalize (the credits of the messages sent coming back)", [&] {
    return s.pending_count == 0 &&
           std::all_of(s.credits.begin(), s.credits.end(),
                       [&](int c) { return c == s.config.credits; });
  });
}

const incoming* probe(int context, int source, int tag) {
  request pattern;
  pattern.context = context;
  pattern.peer = source;
  pattern.tag = tag;
  for (const auto& m : st().unexpected) {
    if (matches(pattern, *m)) return m.get();
  }
  return nullptr;
}

void finish_status(const request& r, MPI_Status* status) {
  if (status != MPI_STATUS_IGNORE) *status = r.status;
}

}  // namespace splitc::mpi
