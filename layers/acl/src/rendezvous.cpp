// The synchronous protocol (seed Fig. 1, README.md): the receiver writes a request block
// {buffer, length, tag, sequence} into the sender's table (one block per receiver, one writer;
// stores into the mapped segment where the sender's is mapped, the sequence last, else a short
// active message whose handler writes it); the sender, waiting in its send, finds it, puts the data straight
// into the receiver's buffer, and the last piece's handler is the finalization block (bytes,
// DONE) the receiver waits for. One round trip; no buffering, no copy but the transfer.
//
// What the seed leaves open (README.md, "Rendezvous"): a sender that finds no request for its
// message announces itself to the receiver (tag, its count of sends there, whether it has a
// receive open toward the receiver). An ACLMPL_ANY_NODE receive answers the first
// announcement that matches; a sender waiting on a receiver that is itself announced as
// waiting on it, with neither receiving from the other, is a deadlock the job ends on.
#include "layer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstring>

namespace splitc::acl {
namespace {

/// Data up to this size travel in one medium message (copied by its handler); beyond it, in
/// long messages straight into the receive buffer.
constexpr std::size_t medium_push_max = std::min<std::size_t>(am_medium_limit, 4096);

/// Polls a synchronous send spends waiting for its request before it announces itself.
constexpr int polls_before_announcing = 64;

/// Write a request block, the sequence last (release): by the receiver into a mapped table,
/// or by on_request at the sender.
void write_block(request_block& b, std::uint64_t buffer, std::uint64_t capacity,
                 std::uint64_t tag, std::uint64_t sequence) {
  b.buffer = buffer;
  b.capacity = capacity;
  b.tag = tag;
  std::atomic_ref<std::uint64_t>(b.sequence).store(sequence, std::memory_order_release);
}

/// At the sender: a receiver's request block arrives.
void on_request(const am_message& m) {
  write_block(st().requests[m.source], m.args[0], m.args[1], m.args[2], m.args[3]);
}

/// At the receiver: a sender announces that it waits with no request for its message.
void on_announce(const am_message& m) {
  state& s = st();
  const int from = m.source;
  const std::uint64_t number = m.args[1];
  s.announce_arrivals += 1;
  if (number <= s.received_from[from]) return;  // that message has been received since
  s.announcements[from] = {from, tag_of(m.args[0]), context_of(m.args[0]), number,
                           m.args[2] != 0};
  if (!s.announced[from]) {
    s.announced[from] = true;
    s.announce_order.push_back(from);
  }
}

/// At the receiver: `bytes` of the message numbered `number` from `from` have landed.
void land(state& s, int from, std::size_t bytes, std::size_t total, std::uint64_t number,
          std::int32_t tag) {
  posted_receive& r = s.receiving[from];
  r.arrived += bytes;
  if (r.arrived < total) return;
  r.done = true;
  r.tag = tag;
  s.received_from[from] = number;
  if (s.announced[from] && s.announcements[from].send_number <= number) s.announced[from] = false;
}

void on_data_medium(const am_message& m) {
  state& s = st();
  if (m.length > 0) std::memcpy(s.receiving[m.source].buffer, m.payload, m.length);
  land(s, m.source, m.length, m.length, m.args[0], tag_of(m.args[1]));
}

void on_data_long(const am_message& m) {
  land(st(), m.source, m.length, static_cast<std::size_t>(m.args[1]), m.args[0],
       tag_of(m.args[2]));
}

void on_data_empty(const am_message& m) { land(st(), m.source, 0, 0, m.args[0], tag_of(m.args[1])); }

void post_request(state& s, int source, const receive_half& r, context c) {
  posted_receive& p = s.receiving[source];
  p = posted_receive{};
  p.buffer = static_cast<char*>(r.buffer);
  p.capacity = r.capacity;
  s.receive_half = source;
  const std::uint64_t sequence = ++s.requests_to[source];
  if (request_block* b = direct_pointer(global_ptr<request_block>(source, &s.requests[myproc()])))
    write_block(*b, word_of(r.buffer), r.capacity, tag_word(r.tag, c), sequence);
  else
    am_request(source, s.h_request, word_of(r.buffer), static_cast<std::uint64_t>(r.capacity),
               tag_word(r.tag, c), sequence);
}

bool request_matches(const state& s, int destination, std::int32_t tag, context c) {
  request_block& b = s.requests[destination];
  if (std::atomic_ref<std::uint64_t>(b.sequence).load(std::memory_order_acquire) <=
      s.consumed[destination])
    return false;
  return context_of(b.tag) == c && tag_matches(tag_of(b.tag), tag);
}

/// The first live announcement an open wildcard receive matches (its sender, or -1).
int take_announcement(state& s, std::int32_t tag, context c) {
  for (auto it = s.announce_order.begin(); it != s.announce_order.end();) {
    const int from = *it;
    if (!s.announced[from]) {
      it = s.announce_order.erase(it);
      continue;
    }
    const announcement& a = s.announcements[from];
    if (a.ctx == c && tag_matches(tag, a.tag)) {
      s.announced[from] = false;
      s.announce_order.erase(it);
      return from;
    }
    ++it;
  }
  return -1;
}

/// Put the message into the receiver's buffer: the request is consumed, the data pushed.
void push(state& s, const send_half& h, context c, std::uint64_t number) {
  const int d = h.destination;
  const request_block b = s.requests[d];  // request_matches has acquired it
  s.consumed[d] = b.sequence;
  const std::size_t n = std::min<std::size_t>(h.length, b.capacity);
  const std::uint64_t tag = tag_word(h.tag, c);
  if (n == 0) {
    am_request(d, s.h_data_empty, number, tag);
  } else if (n <= medium_push_max) {
    am_request_medium(d, s.h_data_medium, h.buffer, n, number, tag);
  } else {
    const char* from = static_cast<const char*>(h.buffer);
    char* to = pointer_of<char>(b.buffer);
    for (std::size_t off = 0; off < n; off += am_long_piece) {
      const std::size_t piece = std::min(am_long_piece, n - off);
      am_request_long(d, s.h_data_long, from + off, piece, to + off, number,
                      static_cast<std::uint64_t>(n), tag);
    }
  }
}

/// A synchronous send to `d` that has no request: is `d` itself waiting in a synchronous send
/// to this processor, with neither of the two receiving from the other? Then neither ever
/// will: the job ends.
void check_deadlock(const state& s, const send_half& h, context c, const char* call) {
  const int d = h.destination;
  if (!s.announced[d]) return;
  const announcement& a = s.announcements[d];
  if (a.send_number <= s.received_from[d] || a.receiving_from_me || a.ctx != c) return;
  if (s.receive_half == d) return;
  if (s.receive_half == ACLMPL_ANY_NODE && tag_matches(s.receive_half_tag, a.tag)) return;
  fail(call, fmt::format(
                 "deadlock: this processor waits in a synchronous send to processor {} (tag {}) "
                 "while processor {} waits in a synchronous send to this one (tag {}), and "
                 "neither receives from the other; two synchronous sends to each other never "
                 "complete (ACLMPL_send_and_receive exchanges)",
                 d, h.tag, d, a.tag));
}

}  // namespace

void start_rendezvous(state& s) {
  const auto p = static_cast<std::size_t>(procs());
  s.request_memory = all_spread_malloc(p, p * sizeof(request_block));
  if (!s.request_memory)
    fail("ACLMPL_init", "no room in the spread heap for the synchronous protocol's request table");
  s.requests = static_cast<request_block*>(s.request_memory.local());
  std::memset(static_cast<void*>(s.requests), 0, p * sizeof(request_block));
  s.consumed.assign(p, 0);
  s.sends_to.assign(p, 0);
  s.requests_to.assign(p, 0);
  s.receiving.assign(p, posted_receive{});
  s.received_from.assign(p, 0);
  s.announced.assign(p, false);
  s.announcements.assign(p, announcement{});
  s.h_request = register_handler(on_request);
  s.h_announce = register_handler(on_announce);
  s.h_data_medium = register_handler(on_data_medium);
  s.h_data_long = register_handler(on_data_long);
  s.h_data_empty = register_handler(on_data_empty);
}

void stop_rendezvous(state& s) { all_spread_free(s.request_memory); }

std::size_t rendezvous(const receive_half* r, const send_half* h, context c, const char* call) {
  state& s = st();
  int source = -2;
  bool posted = false;
  if (r != nullptr) {
    s.receive_half = r->source;
    s.receive_half_tag = r->tag;
    if (r->source != ACLMPL_ANY_NODE) {
      source = r->source;
      post_request(s, source, *r, c);
      posted = true;
    }
  }
  bool sent = h == nullptr;
  std::uint64_t number = 0;
  if (h != nullptr) {
    const int d = h->destination;
    number = ++s.sends_to[d];
    // The request is often on its way (a receive posted just before): a few polls before
    // announcing save the announcement's message; then the announcement, and the wait.
    for (int k = 0; k < polls_before_announcing && !request_matches(s, d, h->tag, c); ++k)
      splitc::poll();
    if (!request_matches(s, d, h->tag, c)) {
      const bool receiving_from_d = s.receive_half == d || s.receive_half == ACLMPL_ANY_NODE;
      s.announcements_sent += 1;
      am_request(d, s.h_announce, tag_word(h->tag, c), number,
                 static_cast<std::uint64_t>(receiving_from_d));
    } else {
      push(s, *h, c, number);
      sent = true;
    }
  }
  // The wait's name in a deadlock report: the global operation's own, or the kind of wait.
  const char* what = c == context::global ? call
                     : h == nullptr       ? "ACLMPL_receive_block (waiting for the message)"
                     : r == nullptr       ? "ACLMPL_send_block (waiting for the receiver's request)"
                                          : "ACLMPL_send_and_receive";
  wait_in_layer(what, [&] {
    if (r != nullptr && !posted) {
      const int from = take_announcement(s, r->tag, c);
      if (from >= 0) {
        source = from;
        post_request(s, source, *r, c);
        posted = true;
      }
    }
    if (!sent) {
      if (request_matches(s, h->destination, h->tag, c)) {
        push(s, *h, c, number);
        sent = true;
      } else {
        check_deadlock(s, *h, c, call);
      }
    }
    return sent && (r == nullptr || (posted && s.receiving[source].done));
  });
  s.receive_half = -2;
  if (r == nullptr) return 0;
  const posted_receive& p = s.receiving[source];
  s.last_bytes = static_cast<int>(p.arrived);
  s.last_sender = source;
  s.last_tag = p.tag;
  return p.arrived;
}

bool sync_message_pending(const state& s, int node, std::int32_t tag) {
  for (int from : s.announce_order) {
    if (!s.announced[from]) continue;
    const announcement& a = s.announcements[from];
    if (a.ctx == context::user && (node == ACLMPL_ANY_NODE || node == from) &&
        tag_matches(tag, a.tag))
      return true;
  }
  return false;
}

}  // namespace splitc::acl

using namespace splitc::acl;

extern "C" {

int ACLMPL_send_block(int node, int tag, const void* buf, int len) {
  const char* call = "ACLMPL_send_block";
  check_node(node, false, call);
  check_tag(tag, false, call);
  check_length(len, call);
  const send_half h{node, tag, buf, static_cast<std::size_t>(len)};
  rendezvous(nullptr, &h, context::user, call);
  return 1;
}

int ACLMPL_receive_block(int node, int tag, void* buf, int len) {
  const char* call = "ACLMPL_receive_block";
  check_node(node, true, call);
  check_tag(tag, true, call);
  check_length(len, call);
  const receive_half r{node, tag, buf, static_cast<std::size_t>(len)};
  rendezvous(&r, nullptr, context::user, call);
  return 1;
}

int ACLMPL_send_and_receive(int source, int source_tag, void* receive_buf, int receive_len,
                            int destination, int destination_tag, const void* send_buf,
                            int send_len) {
  const char* call = "ACLMPL_send_and_receive";
  check_node(source, true, call);
  check_tag(source_tag, true, call);
  check_length(receive_len, call);
  check_node(destination, false, call);
  check_tag(destination_tag, false, call);
  check_length(send_len, call);
  const receive_half r{source, source_tag, receive_buf, static_cast<std::size_t>(receive_len)};
  const send_half h{destination, destination_tag, send_buf, static_cast<std::size_t>(send_len)};
  rendezvous(&r, &h, context::user, call);
  return 1;
}

}  // extern "C"
