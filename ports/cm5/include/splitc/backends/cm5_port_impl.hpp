// The CM-5 port's members (cm5_port.hpp), included by the source of each
// port (cmaml_backend.cpp, cmam_backend.cpp) next to its Layer glue, which
// instantiates the template. Only the Layer's calls reach the vendor layer.
#pragma once

#include <splitc/backends/cm5_port.hpp>
#include <splitc/port/backoff.hpp>
#include <splitc/port/fail.hpp>
#include <splitc/port/env.hpp>
#include <splitc/port/segment_places.hpp>
#include <splitc/port/word_packing.hpp>
#ifdef SPLITC_SIM_SUBSTRATE
#include <splitc/port/on_sim.hpp>
#else
#include <splitc/port/segment.hpp>
#endif

#include <cstdlib>
#include <cstring>

namespace splitc::backends::cm5 {

// A message in one packet, the packed form (on_packed_request, on_packed_reply): when the
// first three arguments fit in 48 bits, signed -- every user-space address, length and
// count does -- the top 16 bits of the packet's first word carry the handler, of the second
// the sender, of the third the argument count (bits 0-2) and "deliver as a reply" (bit 3, a
// reply travelling on the request network); the fourth argument travels whole. So a get, a
// put, a store and their replies are one packet each, as the seed's were (Luna 1994, §4.2.1:
// the handler's address and four words).
namespace packed {
inline constexpr std::uint16_t as_reply = 8;
inline bool fits(const am_word* a, int n) {
  for (int i = 0; i < n && i < 3; ++i)
    if (!port::word_packing::fits(a[i])) return false;
  return true;
}
}  // namespace packed

// Otherwise the splitc header word of a packet:
//   bits 0-15 handler, 16-31 sender, 32-34 argument count, 35 "deliver as a
//   reply" (a reply travelling on the request network), 36 the fourth
//   argument is in bits 38-63 (it fits in 26 bits, signed), 37 the fourth
//   argument follows in a second packet whose tag is in bits 38-63.
namespace header {
inline constexpr int source_shift = 16, nargs_shift = 32, extra_shift = 38;
inline constexpr std::uint64_t as_reply = 1ULL << 35, inline_fourth = 1ULL << 36,
                               two_part = 1ULL << 37;
inline constexpr std::uint64_t tag_mask = (1ULL << 26) - 1;
inline bool fits_inline(am_word w) {
  const auto v = static_cast<std::int64_t>(w);
  return v >= -(1LL << 25) && v < (1LL << 25);
}
}  // namespace header

// Landing areas: the bytes before the data hold the message's arguments.
inline constexpr std::size_t landing_args = 4 * sizeof(am_word);

template <class Layer>
cm5_backend<Layer>& cm5_backend<Layer>::here() {
  return *instances()[static_cast<std::size_t>(Layer::self())];
}

template <class Layer>
cm5_backend<Layer>::cm5_backend(start_arguments) {
  Layer::set_error_hook([](const char* message) { port::fail("{}: {}", Layer::name, message); });
#ifndef SPLITC_SIM_SUBSTRATE
  const long me = port::env::myproc.get(-1);
  if (me >= 0) Layer::enroll(static_cast<int>(me));
#endif
  myproc_ = Layer::self();
  procs_ = Layer::nodes();
  if (procs_ > 0xffff) port::fail("{}: at most 65535 processors ({} asked for)", Layer::name, procs_);
  auto& table = instances();
  if (table.size() < static_cast<std::size_t>(procs_)) table.resize(static_cast<std::size_t>(procs_));
  table[static_cast<std::size_t>(myproc_)] = this;
#ifdef SPLITC_SIM_SUBSTRATE
  segment_ = port::sim_segment();
#else
  const port::segment_geometry g = port::segment_from_environment();
  segment_ = {port::reserve_segment(Layer::name, g, 1, true), g.size};
#endif
}

template <class Layer>
cm5_backend<Layer>::~cm5_backend() {
#ifndef SPLITC_SIM_SUBSTRATE
  port::release_segment({reinterpret_cast<std::uintptr_t>(segment_.base), segment_.size}, 1);
#endif
  instances()[static_cast<std::size_t>(myproc_)] = nullptr;
}

// ---- sending --------------------------------------------------------------------

template <class Layer>
am_status cm5_backend<Layer>::send(proc_t p, handler_id h, const am_word* a, int n,
                                   bool is_request, bool reply_network) {
  if (p < 0 || p >= procs_)
    port::fail("{}: processor {} is out of range (0 to {})", Layer::name, p, procs_ - 1);
  if (packed::fits(a, n)) {
    am_word w[4] = {};
    for (int i = 0; i < n; ++i) w[i] = a[i];
    using port::word_packing::with_field;
    const auto count = static_cast<std::uint16_t>(
        n | (!is_request && !reply_network ? packed::as_reply : 0));
    const long w0 = with_field(w[0], static_cast<std::uint16_t>(h)),
               w1 = with_field(w[1], static_cast<std::uint16_t>(myproc_)),
               w2 = with_field(w[2], count), w3 = static_cast<long>(w[3]);
    ++send_depth_;
    if (reply_network)
      Layer::reply(p, &cm5_backend::on_packed_reply, w0, w1, w2, w3);
    else
      Layer::request(p, &cm5_backend::on_packed_request, w0, w1, w2, w3);
    leave_send();
    return am_status::ok;
  }
  std::uint64_t word = static_cast<std::uint64_t>(h) |
                       static_cast<std::uint64_t>(myproc_) << header::source_shift |
                       static_cast<std::uint64_t>(n) << header::nargs_shift;
  if (!is_request && !reply_network) word |= header::as_reply;
  long w[3] = {0, 0, 0};
  for (int i = 0; i < n && i < 3; ++i) w[i] = static_cast<long>(a[i]);
  bool second = false;
  std::uint64_t tag = 0;
  if (n == 4) {
    if (header::fits_inline(a[3])) {
      word |= header::inline_fourth | (a[3] & header::tag_mask) << header::extra_shift;
    } else {
      tag = next_tag_++ & header::tag_mask;
      word |= header::two_part | tag << header::extra_shift;
      second = true;
    }
  }
  ++send_depth_;
  if (reply_network) {
    Layer::reply(p, &cm5_backend::on_reply, static_cast<long>(word), w[0], w[1], w[2]);
  } else {
    Layer::request(p, &cm5_backend::on_request, static_cast<long>(word), w[0], w[1], w[2]);
    if (second) {
      const long key = static_cast<long>(static_cast<std::uint64_t>(myproc_) |
                                         tag << header::source_shift);
      Layer::request(p, &cm5_backend::on_second_request, key, static_cast<long>(a[3]), 0, 0);
    }
  }
  leave_send();
  return am_status::ok;
}

template <class Layer>
am_status cm5_backend<Layer>::request_short(proc_t p, handler_id h, const am_word* a, int n) {
  return send(p, h, a, n, true, false);
}

template <class Layer>
am_status cm5_backend<Layer>::reply_short(const am_message& t, handler_id h, const am_word* a,
                                          int n) {
  // The layer's reply, when the request handler that got t is running and
  // the reply is one packet; otherwise a request marked as a reply.
  const bool one_packet = packed::fits(a, n) || n < 4 || header::fits_inline(a[3]);
  if (in_request_handler_ && !replied_ && t.source == requester_ && send_depth_ == 0 &&
      one_packet) {
    replied_ = true;
    return send(t.source, h, a, n, false, true);
  }
  return send(t.source, h, a, n, false, false);
}

// ---- long messages through a landing area ----------------------------------------

// The round trip that opens a landing area at p (Luna 1994 §4.2.1): `opener` runs there with
// (this processor and a ticket, dst, len, last) and answers with the area's number. Returns
// it with a send of the layer still open (the caller sends into the area, then leave_send),
// or -1 when this processor is inside a handler, where it may not wait, or p had no area
// free: the caller answers no_resource and the core tries again from its progress engine.
template <class Layer>
int cm5_backend<Layer>::open_landing_at(proc_t p, layer_handler opener, long dst, long len,
                                        long last) {
  if (p < 0 || p >= procs_)
    port::fail("{}: processor {} is out of range (0 to {})", Layer::name, p, procs_ - 1);
  if (delivering_ > 0) {
    refused_since_poll_ = true;
    return -1;
  }
  const long ticket = ++open_ticket_;
  open_done_ = 0;
  ++send_depth_;
  Layer::request(p, opener,
                 static_cast<long>(static_cast<std::uint64_t>(myproc_) |
                                   static_cast<std::uint64_t>(ticket) << 16),
                 dst, len, last);
  Layer::poll_while_lt(&open_done_, 1);
  if (open_port_ < 0) {
    leave_send();
    refused_since_poll_ = true;
  }
  return open_port_;
}

template <class Layer>
am_status cm5_backend<Layer>::send_long(proc_t p, handler_id h, const am_word* a, int n,
                                        const void* src, std::size_t len, void* dst,
                                        bool is_request) {
  const long meta = static_cast<long>(static_cast<std::uint64_t>(h) |
                                      static_cast<std::uint64_t>(n) << 16 |
                                      static_cast<std::uint64_t>(is_request) << 20);
  const int area = open_landing_at(p, &cm5_backend::on_open, reinterpret_cast<long>(dst),
                                   static_cast<long>(len), meta);
  if (area < 0) return am_status::no_resource;  // from a handler, or no area free there now
  am_word args[4] = {};
  for (int i = 0; i < n; ++i) args[i] = a[i];
  Layer::send_to_landing(p, area, 0, args, static_cast<int>(landing_args));
  if (len != 0) Layer::send_to_landing(p, area, static_cast<int>(landing_args), src, static_cast<int>(len));
  leave_send();
  return am_status::ok;
}

template <class Layer>
am_status cm5_backend<Layer>::request_long(proc_t p, handler_id h, const am_word* a, int n,
                                           const void* src, std::size_t len, void* dst) {
  return send_long(p, h, a, n, src, len, dst, true);
}

template <class Layer>
am_status cm5_backend<Layer>::reply_long(const am_message& t, handler_id h, const am_word* a,
                                         int n, const void* src, std::size_t len, void* dst) {
  return send_long(t.source, h, a, n, src, len, dst, false);
}

template <class Layer>
void cm5_backend<Layer>::on_open(long ticket, long dst, long len, long meta) {
  const auto m = static_cast<std::uint64_t>(meta);
  const int source = static_cast<int>(static_cast<std::uint64_t>(ticket) & 0xffff);
  auto* l = new landing{};
  l->source = source;
  l->handler = static_cast<handler_id>(m & 0xffff);
  l->nargs = static_cast<int>((m >> 16) & 0xf);
  l->is_request = ((m >> 20) & 1) != 0;
  l->dst = reinterpret_cast<void*>(dst);
  l->len = static_cast<std::size_t>(len);
  l->staging = static_cast<unsigned char*>(std::malloc(landing_args + l->len));
  int port = -1;
  if (l->staging != nullptr)
    port = Layer::open_landing(l->staging, static_cast<int>(landing_args + l->len), l);
  if (port < 0) {
    std::free(l->staging);  // the sender answers no_resource and tries again later
    delete l;
  } else {
    l->port = port;
  }
  Layer::reply(source, &cm5_backend::on_opened, ticket, port, 0, 0);
}

template <class Layer>
void cm5_backend<Layer>::on_opened(long ticket, long port, long, long) {
  cm5_backend& b = here();
  if ((static_cast<std::uint64_t>(ticket) >> 16) != static_cast<std::uint64_t>(b.open_ticket_))
    port::fail("{}: an answer to landing request {} while waiting for {}", Layer::name,
                 static_cast<std::uint64_t>(ticket) >> 16, b.open_ticket_);
  b.open_port_ = static_cast<int>(port);
  b.open_done_ = 1;
}

// ---- one-sided transfers into landing areas at their destinations (Luna 1994 §4.2.1) ----

template <class Layer>
am_status cm5_backend<Layer>::rma_get(void* dst, proc_t p, const void* src, std::size_t len,
                                      counter& done) {
  if (p < 0 || p >= procs_)
    port::fail("{}: processor {} is out of range (0 to {})", Layer::name, p, procs_ - 1);
  // The landing area is this processor's own: opening it needs no communication.
  auto* l = new landing{};
  l->kind = landing_kind::get;
  l->done = &done;
  l->source = p;
  l->len = len;
  const int port = Layer::open_landing(dst, static_cast<int>(len), l);
  if (port < 0) {
    delete l;
    refused_since_poll_ = true;
    return am_status::no_resource;  // every receive port taken: the core polls and retries
  }
  l->port = port;
  ++get_landings_;
  ++send_depth_;
  Layer::request(p, &cm5_backend::on_get,
                 static_cast<long>(static_cast<std::uint64_t>(myproc_) |
                                   static_cast<std::uint64_t>(port) << 16),
                 reinterpret_cast<long>(port::same_place_on(p, src)), static_cast<long>(len), 0);
  leave_send();
  return am_status::ok;
}

template <class Layer>
void cm5_backend<Layer>::on_get(long source_and_port, long src, long len, long) {
  cm5_backend& b = here();
  const auto w = static_cast<std::uint64_t>(source_and_port);
  const get_request g{static_cast<proc_t>(w & 0xffff), static_cast<int>(w >> 16),
                      reinterpret_cast<const void*>(src), static_cast<std::size_t>(len)};
  if (g.requester >= b.procs_)
    port::fail("{}: a get from processor {}, of {} processors", Layer::name, g.requester, b.procs_);
  // Inside a send of the layer (it drains arrivals while it waits) another send would nest:
  // the get is served when the outermost send has left (leave_send).
  if (b.send_depth_ > 0) {
    b.queued_gets_.push_back(g);
    return;
  }
  b.serve_get(g);
  b.after_send();
}

template <class Layer>
void cm5_backend<Layer>::serve_get(const get_request& g) {
  ++send_depth_;
  Layer::send_to_landing(g.requester, g.port, 0, g.src, static_cast<int>(g.len));
  --send_depth_;
}

template <class Layer>
void cm5_backend<Layer>::serve_queued_gets() {
  while (!queued_gets_.empty()) {
    const get_request g = queued_gets_.front();
    queued_gets_.pop_front();
    serve_get(g);
  }
}

template <class Layer>
am_status cm5_backend<Layer>::rma_put(proc_t p, void* dst, const void* src, std::size_t len,
                                      counter& done) {
  return open_target(p, dst, len, &done, src);
}

template <class Layer>
am_status cm5_backend<Layer>::rma_store(proc_t p, void* dst, const void* src, std::size_t len) {
  return open_target(p, dst, len, nullptr, src);
}

// A put (done: the requester's counter) or a store (done null): the owner opens a landing
// area at dst (a round trip, as the seed paid), then the data go straight into it. The
// owner is told its own copy of the place (on the sim engine each processor's segment has
// an address of its own; elsewhere this is the address itself), as a get's owner is.
template <class Layer>
am_status cm5_backend<Layer>::open_target(proc_t p, void* dst, std::size_t len, counter* done,
                                          const void* src) {
  const int area = open_landing_at(p, &cm5_backend::on_open_target,
                                   reinterpret_cast<long>(port::same_place_on(p, dst)),
                                   static_cast<long>(len), reinterpret_cast<long>(done));
  if (area < 0) return am_status::no_resource;
  Layer::send_to_landing(p, area, 0, src, static_cast<int>(len));
  leave_send();
  return am_status::ok;
}

template <class Layer>
void cm5_backend<Layer>::on_open_target(long ticket, long dst, long len, long done) {
  const int source = static_cast<int>(static_cast<std::uint64_t>(ticket) & 0xffff);
  auto* l = new landing{};
  l->kind = done != 0 ? landing_kind::put : landing_kind::store;
  l->done = reinterpret_cast<counter*>(done);
  l->source = source;
  l->len = static_cast<std::size_t>(len);
  const int port = Layer::open_landing(reinterpret_cast<void*>(dst), static_cast<int>(len), l);
  if (port < 0)
    delete l;  // the requester answers no_resource and tries again later
  else
    l->port = port;
  Layer::reply(source, &cm5_backend::on_opened, ticket, port, 0, 0);
}

template <class Layer>
void cm5_backend<Layer>::on_put_done(long done, long, long, long) {
  reinterpret_cast<counter*>(done)->add_local(-1);
}

template <class Layer>
void cm5_backend<Layer>::landed(void* record) {
  auto* l = static_cast<landing*>(record);
  Layer::close_landing(l->port);
  cm5_backend& b = here();
  switch (l->kind) {
    case landing_kind::get:
      --b.get_landings_;
      l->done->add_local(-1);
      delete l;
      return;
    case landing_kind::store:
      b.stored_bytes_ += static_cast<std::int64_t>(l->len);
      delete l;
      return;
    case landing_kind::put: {
      const proc_t requester = l->source;
      const long done = reinterpret_cast<long>(l->done);
      delete l;
      ++b.send_depth_;
      Layer::request(requester, &cm5_backend::on_put_done, done, 0, 0, 0);
      b.leave_send();
      return;
    }
    case landing_kind::message:
      break;
  }
  am_word args[4];
  std::memcpy(args, l->staging, landing_args);
  if (l->len != 0) std::memcpy(l->dst, l->staging + landing_args, l->len);
  am_message m{};
  m.source = l->source;
  m.handler = l->handler;
  m.kind = am_kind::long_msg;
  m.is_request = l->is_request;
  m.nargs = l->nargs;
  m.args = args;
  m.payload = l->dst;
  m.length = l->len;
  std::free(l->staging);
  delete l;
  b.arrive(m, false);
}

// ---- arrivals ------------------------------------------------------------------------

template <class Layer>
void cm5_backend<Layer>::on_request(long word, long a0, long a1, long a2) {
  const long w[3] = {a0, a1, a2};
  here().first_half(word, w, false);
}

template <class Layer>
void cm5_backend<Layer>::on_reply(long word, long a0, long a1, long a2) {
  const long w[3] = {a0, a1, a2};
  here().first_half(word, w, true);
}

template <class Layer>
void cm5_backend<Layer>::on_packed_request(long w0, long w1, long w2, long w3) {
  here().unpack(w0, w1, w2, w3, false);
}

template <class Layer>
void cm5_backend<Layer>::on_packed_reply(long w0, long w1, long w2, long w3) {
  here().unpack(w0, w1, w2, w3, true);
}

template <class Layer>
void cm5_backend<Layer>::unpack(long w0, long w1, long w2, long w3, bool reply_network) {
  using namespace port::word_packing;
  const std::uint16_t count = field(w2);
  const int n = count & 7;
  const auto source = static_cast<proc_t>(field(w1));
  if (n > 4 || source >= procs_ || count > 15)
    port::fail("{}: a packet with a bad splitc header ({:#x} {:#x} {:#x})", Layer::name,
               static_cast<std::uint64_t>(w0), static_cast<std::uint64_t>(w1),
               static_cast<std::uint64_t>(w2));
  am_word args[4] = {argument(w0), argument(w1), argument(w2), static_cast<am_word>(w3)};
  const am_message m{source, static_cast<handler_id>(field(w0)), am_kind::short_msg,
                     !reply_network && (count & packed::as_reply) == 0, n, args, nullptr, 0};
  arrive(m, !reply_network);
}

template <class Layer>
void cm5_backend<Layer>::on_second_request(long key, long arg3, long, long) {
  here().second_half(key, arg3, false);
}

template <class Layer>
void cm5_backend<Layer>::on_second_reply(long key, long arg3, long, long) {
  here().second_half(key, arg3, true);
}

template <class Layer>
void cm5_backend<Layer>::first_half(long word_in, const long* w, bool reply_network) {
  const auto word = static_cast<std::uint64_t>(word_in);
  const int n = static_cast<int>((word >> header::nargs_shift) & 7);
  const auto source = static_cast<proc_t>((word >> header::source_shift) & 0xffff);
  if (n > 4 || source >= procs_)
    port::fail("{}: a packet with a bad splitc header ({:#x})", Layer::name, word);
  if (word & header::two_part) {
    const std::uint64_t tag = (word >> header::extra_shift) & header::tag_mask;
    const std::uint64_t key = static_cast<std::uint64_t>(source) | tag << 16 |
                              static_cast<std::uint64_t>(reply_network) << 63;
    partial& part = partials_[key];
    part.header = word_in;
    for (int i = 0; i < 3; ++i) part.args[i] = static_cast<am_word>(w[i]);
    part.first = true;
    if (!part.second) return;
    am_word args[4];
    std::memcpy(args, part.args, sizeof args);
    partials_.erase(key);
    am_message m{source, static_cast<handler_id>(word & 0xffff), am_kind::short_msg,
                 !reply_network && !(word & header::as_reply), n, args, nullptr, 0};
    arrive(m, !reply_network);
    return;
  }
  am_word args[4] = {static_cast<am_word>(w[0]), static_cast<am_word>(w[1]),
                     static_cast<am_word>(w[2]), 0};
  if (word & header::inline_fourth) {
    // Sign-extend the 26 bits.
    args[3] = static_cast<am_word>(static_cast<std::int64_t>(word) >> header::extra_shift);
  }
  am_message m{source, static_cast<handler_id>(word & 0xffff), am_kind::short_msg,
               !reply_network && !(word & header::as_reply), n, args, nullptr, 0};
  arrive(m, !reply_network);
}

template <class Layer>
void cm5_backend<Layer>::second_half(long key_in, long arg3, bool reply_network) {
  const auto k = static_cast<std::uint64_t>(key_in);
  const std::uint64_t key = (k & 0xffff) | ((k >> 16) & header::tag_mask) << 16 |
                            static_cast<std::uint64_t>(reply_network) << 63;
  partial& part = partials_[key];
  part.args[3] = static_cast<am_word>(arg3);
  part.second = true;
  if (!part.first) return;
  const auto word = static_cast<std::uint64_t>(part.header);
  am_word args[4];
  std::memcpy(args, part.args, sizeof args);
  partials_.erase(key);
  am_message m{static_cast<proc_t>(k & 0xffff), static_cast<handler_id>(word & 0xffff),
               am_kind::short_msg, !reply_network && !(word & header::as_reply),
               static_cast<int>((word >> header::nargs_shift) & 7), args, nullptr, 0};
  arrive(m, !reply_network);
}

// Deliver now when inside poll and not inside a send; else keep it for the
// next poll (a send of the layer drains arrivals, and sends run no handlers).
template <class Layer>
void cm5_backend<Layer>::arrive(const am_message& m, bool from_request_handler) {
  if (may_deliver_ && send_depth_ == 0) {
    const bool saved_in = in_request_handler_, saved_replied = replied_;
    const proc_t saved_requester = requester_;
    in_request_handler_ = from_request_handler && m.is_request;
    requester_ = m.source;
    replied_ = false;
    ++delivering_;
    ++delivered_;
    sink_.deliver(sink_.context, m);
    --delivering_;
    in_request_handler_ = saved_in;
    replied_ = saved_replied;
    requester_ = saved_requester;
    after_delivery();
    return;
  }
  stored& s = stored_.emplace_back();
  s.message = m;
  std::memcpy(s.args, m.args, sizeof(am_word) * static_cast<std::size_t>(m.nargs));
  s.message.args = s.args;
}

// Inside a native collective the layer delivers while it waits in the control
// network, where the core's progress engine cannot run: what a handler queued
// (a composed or long reply) would wait for the collective's end, and a
// processor outside it waiting for that reply would never get there. So after
// each delivery there the core's progress runs (not nested), and again while
// it left messages stored or sends queued: a long reply that found no landing
// area free at its receiver is retried here until it leaves, since the
// receiver, waiting for it, sends nothing that would bring us back.
template <class Layer>
void cm5_backend<Layer>::after_delivery() {
  if (!in_control_ || in_progress_hook_ || progress_.run == nullptr) return;
  in_progress_hook_ = true;
  port::backoff idle;
  for (;;) {
    const bool queued = progress_.run(progress_.context);
    if (!queued && stored_.empty()) break;
    if (queued) idle.pause();
  }
  in_progress_hook_ = false;
}

template <class Layer>
int cm5_backend<Layer>::poll(am_sink sink) {
  // Also called from the progress hook inside a control-network operation:
  // restores the state it found.
  const bool saved_may_deliver = may_deliver_;
  const int saved_delivered = delivered_;
  sink_ = sink;
  delivered_ = 0;
  may_deliver_ = true;
  refused_since_poll_ = false;
  serve_queued_gets();
  // What arrived during sends first; handlers never poll, so nothing is
  // added to the queue's front while this runs.
  for (std::size_t k = stored_.size(); k > 0 && !stored_.empty(); --k) {
    stored s = stored_.front();
    stored_.pop_front();
    s.message.args = s.args;
    arrive(s.message, false);
  }
  // Packets of a bulk transfer landing in a receive port run no core handler
  // but are progress a wait is waiting for: count them too, so that a
  // processor receiving 16 MiB in 24-byte packets does not back off to
  // sleeping between polls (the contract: non-zero when anything happened).
  const int packets = Layer::poll();
  may_deliver_ = saved_may_deliver;
  const int ran = delivered_;
  delivered_ = saved_delivered + ran;
  return ran > 0 ? ran : packets;
}

template <class Layer>
template <class Operation>
void cm5_backend<Layer>::on_control_network(am_sink sink, am_progress progress,
                                            Operation operation) {
  // The control network drains the data networks while it waits
  // (emulations/cm5/README.md), and deliveries may run meanwhile. What had
  // arrived goes first, and what its handlers queue leaves before this
  // processor enters the control network: nothing delivered inside it would
  // prompt that send, and its receiver may be waiting for it outside.
  sink_ = sink;
  progress_ = progress;
  in_control_ = true;
  if (progress_.run != nullptr)
    after_delivery();
  else
    (void)poll(sink);
  may_deliver_ = true;
  operation();
  in_control_ = false;
  may_deliver_ = false;
  progress_ = {};
}

template <class Layer>
void cm5_backend<Layer>::bootstrap_barrier(am_sink sink) {
  on_control_network(sink, {}, [] { Layer::barrier(); });
}

template <class Layer>
void cm5_backend<Layer>::native_barrier(am_sink sink, am_progress progress) {
  on_control_network(sink, progress, [] { Layer::barrier(); });
}

template <class Layer>
am_word cm5_backend<Layer>::native_combine(am_sink sink, am_progress progress,
                                           native_collective what, native_element e,
                                           native_op op, am_word value)
  requires Layer::control_reductions
{
  am_word result = 0;
  on_control_network(sink, progress,
                     [&] { result = Layer::control_combine(what, e, op, value); });
  return result;
}

template <class Layer>
void cm5_backend<Layer>::native_broadcast(am_sink sink, am_progress progress, void* data,
                                          std::size_t len, proc_t root)
  requires Layer::control_reductions
{
  on_control_network(sink, progress, [&] {
    Layer::control_broadcast(data, static_cast<int>(len), myproc_ == root);
  });
}

template <class Layer>
void cm5_backend<Layer>::finish(int) {}

}  // namespace splitc::backends::cm5
