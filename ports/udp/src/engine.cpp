// The udp backend's reliability protocol (udp_engine.hpp).
#include <splitc/backends/udp_engine.hpp>

#include <sys/mman.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <new>

namespace splitc::backends::udp {
namespace {

constexpr std::size_t align64(std::size_t n) noexcept { return (n + 63) & ~std::size_t{63}; }
constexpr std::size_t align32(std::size_t n) noexcept { return (n + 31) & ~std::size_t{31}; }
constexpr std::uint64_t slot_mask = engine::send_slots - 1;
constexpr std::size_t batch = 64;  ///< datagrams per link call (a GSO buffer of Ethernet-sized ones holds 47)
constexpr std::uint64_t sack_span = 128;  ///< datagrams after the cumulative acknowledgement

}  // namespace

engine::engine(const engine_config& config, const wire_keys& keys, const parse_limits& limits,
               engine_link link, internal_sink internal, std::uint64_t now)
    : config_(config), keys_(keys), limits_(limits), link_(link), internal_(internal) {
  peers_.resize(static_cast<std::size_t>(limits.procs));
  for (auto& p : peers_) {
    p.window_bytes = config_.window_bytes;
    p.rto = config_.rto_initial_ns;
    p.last_sent_any = now;
  }
  next_tick_ = now + config_.tick_ns;
  next_slow_ = now + std::min<std::uint64_t>(config_.heartbeat_ns / 4, 50'000'000);
}

engine::~engine() {
  for (auto& p : peers_)
    if (p.ring != nullptr) munmap(p.ring, config_.ring_bytes);
}

void engine::set_datagram_bytes(int peer, std::size_t bytes) {
  peers_[static_cast<std::size_t>(peer)].datagram_bytes =
      std::clamp<std::size_t>(bytes, 512, max_datagram);
}

void engine::set_window_bytes(int peer, std::size_t bytes) {
  peers_[static_cast<std::size_t>(peer)].window_bytes = std::max<std::size_t>(bytes, 1);
}

std::uint64_t engine::rto_ns(int peer) const noexcept {
  return peers_[static_cast<std::size_t>(peer)].rto;
}
std::size_t engine::in_flight(int peer) const noexcept {
  return peers_[static_cast<std::size_t>(peer)].in_flight;
}

bool engine::ensure_ring(peer& o) {
  if (o.ring != nullptr) return true;
  void* p = mmap(nullptr, config_.ring_bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return false;
  o.ring = static_cast<unsigned char*>(p);
  o.desc = std::make_unique<out_desc[]>(send_slots);
  return true;
}

std::size_t engine::chunk_bytes(const peer& o) const noexcept {
  const std::size_t d = std::min(o.datagram_bytes, max_datagram);
  const std::size_t c = (d - header_bytes - 8 * am_max_args) & ~std::size_t{63};
  return std::max<std::size_t>(c, 64);
}

// ---- sending -------------------------------------------------------------------

am_status engine::send(int q, bool request, am_kind kind, bool internal, std::uint16_t handler,
                       const am_word* args, int nargs, const void* src, std::size_t len,
                       void* dst, std::uint64_t now) {
  if (q == limits_.myproc) {
    self_message m{request, internal, kind, handler, nargs, {}, {}, dst, len};
    if (nargs != 0) std::memcpy(m.args, args, 8 * static_cast<std::size_t>(nargs));
    if (kind == am_kind::long_msg && !internal) {
      if (len != 0 && dst != src) std::memmove(dst, src, len);
    } else if (len != 0) {
      m.payload.assign(static_cast<const unsigned char*>(src),
                       static_cast<const unsigned char*>(src) + len);
    }
    self_.push_back(std::move(m));
    ++stats_.messages_sent;
    return am_status::ok;
  }
  peer& o = peers_[static_cast<std::size_t>(q)];
  if (!ensure_ring(o)) throw std::bad_alloc();
  const std::size_t chunk = chunk_bytes(o);
  const std::size_t nfrag = len == 0 ? 1 : (len + chunk - 1) / chunk;
  const std::size_t arg_bytes = 8 * static_cast<std::size_t>(nargs);
  const std::size_t need = nfrag * (header_bytes + 63) + arg_bytes + len;
  const std::size_t wrap = align64(header_bytes + arg_bytes + chunk);
  if (o.next_seq - o.una + nfrag > send_slots ||
      (o.tail - o.head) + need + wrap > config_.ring_bytes) {
    ++stats_.no_resource;
    return am_status::no_resource;
  }

  const auto* s = static_cast<const unsigned char*>(src);
  const std::uint64_t msg_seq = o.next_seq;
  std::size_t off = 0;
  for (std::size_t j = 0; j < nfrag; ++j) {
    const std::size_t n = std::min(chunk, len - off);
    const std::size_t a = j == 0 ? arg_bytes : 0;
    const std::size_t body = a + n;
    const std::size_t dlen = header_bytes + body;
    std::uint64_t at = o.tail;
    const std::size_t pos = at % config_.ring_bytes;
    if (pos + dlen > config_.ring_bytes) at += config_.ring_bytes - pos;
    // 32-byte steps: a full fragment (96-byte header + a multiple of 64) fills its step, so
    // the fragments of a message lie back to back and go to the kernel as one GSO buffer.
    o.tail = at + align32(dlen);
    unsigned char* d = o.ring + at % config_.ring_bytes;

    auto* h = reinterpret_cast<wire_header*>(d);
    std::memset(h, 0, header_bytes);
    h->magic = wire_magic;
    h->type = static_cast<std::uint8_t>(dgram_type::data);
    h->flags = static_cast<std::uint8_t>((request ? flag_request : 0) |
                                         (internal ? flag_internal : 0) |
                                         (j == 0 ? flag_first : 0) |
                                         (static_cast<unsigned>(kind) << flag_kind_shift));
    h->nargs = static_cast<std::uint8_t>(j == 0 ? nargs : 0);
    h->job = limits_.job;
    h->src = static_cast<std::uint16_t>(limits_.myproc);
    h->dst = static_cast<std::uint16_t>(q);
    h->handler = handler;
    h->payload = static_cast<std::uint32_t>(n);
    h->seq = o.next_seq;
    h->msg_seq = msg_seq;
    h->offset = static_cast<std::uint32_t>(off);
    h->total = static_cast<std::uint32_t>(len);
    if (kind == am_kind::long_msg && !internal)
      h->address = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(dst));

    out_desc& e = o.desc[o.next_seq & slot_mask];
    e = out_desc{};
    e.at = at;
    e.len = static_cast<std::uint32_t>(dlen);
    unsigned char* b = d + header_bytes;
    if (a != 0) std::memcpy(b, args, a);
    if (body > direct_tag_limit) {
      std::uint64_t acc[2] = {0, 0};
      if (a != 0) copy_and_digest(keys_, nullptr, b, a, 0, acc);
      copy_and_digest(keys_, b + a, s + off, n, a, acc);
      e.digest[0] = acc[0];
      e.digest[1] = acc[1];
    } else if (n != 0) {
      std::memcpy(b + a, s + off, n);
    }
    off += n;
    ++o.next_seq;
  }
  ++stats_.messages_sent;
  if (!o.in_active) {
    o.in_active = true;
    active_.push_back(q);
  }
  transmit_new(q, now);
  return am_status::ok;
}

void engine::fill_ack_fields(int q, wire_header& h, std::uint64_t now) noexcept {
  const peer& in = peers_[static_cast<std::size_t>(q)];
  h.ack = in.cum;
  h.sack[0] = bits64(in, in.cum + 1);
  h.sack[1] = bits64(in, in.cum + 65);
  // How long the acknowledgement of the highest datagram waited here (for a
  // reply to ride on, the delayed-acknowledgement timer, a computation that
  // did not poll, a lost datagram it rode on before): the sender takes it off
  // its round-trip sample, so a late acknowledgement does not inflate the
  // timeout (QUIC's ack delay).
  const std::uint64_t held = in.largest_seq != 0 && now > in.largest_at ? (now - in.largest_at) / 1000 : 0;
  h.ack_delay = static_cast<std::uint32_t>(std::min<std::uint64_t>(held, 0xffffffffu));
}

std::uint64_t engine::bits64(const peer& in, std::uint64_t start) const noexcept {
  constexpr std::uint64_t words = receive_window / 64;
  const std::uint64_t idx = start & (receive_window - 1);
  const std::uint64_t w = idx >> 6, sh = idx & 63;
  const std::uint64_t lo = in.bitmap[w] >> sh;
  if (sh == 0) return lo;
  return lo | (in.bitmap[(w + 1) & (words - 1)] << (64 - sh));
}

void engine::transmit(int q, std::uint64_t first, std::uint64_t end, std::uint64_t now,
                      bool retransmit) {
  peer& o = peers_[static_cast<std::size_t>(q)];
  wire_header acks{};
  fill_ack_fields(q, acks, now);
  const unsigned char* bufs[batch];
  std::size_t lens[batch];
  int n = 0;
  for (std::uint64_t s = first; s < end; ++s) {
    out_desc& e = o.desc[s & slot_mask];
    unsigned char* d = o.ring + e.at % config_.ring_bytes;
    auto* h = reinterpret_cast<wire_header*>(d);
    h->ack = acks.ack;
    h->sack[0] = acks.sack[0];
    h->sack[1] = acks.sack[1];
    h->ack_delay = acks.ack_delay;
    const std::size_t body = e.len - header_bytes;
    h->tag = compute_tag(keys_, *h, d + header_bytes, body,
                         body > direct_tag_limit ? e.digest : nullptr);
    if (!retransmit) {
      o.in_flight += e.len;
      e.sent = true;
    }
    e.last_sent = now;
    bufs[n] = d;
    lens[n] = e.len;
    stats_.bytes_sent += e.len;
    if (++n == static_cast<int>(batch)) {
      link_.send(link_.context, q, bufs, lens, n);
      n = 0;
    }
  }
  if (n != 0) link_.send(link_.context, q, bufs, lens, n);
  stats_.datagrams_sent += end - first;
  if (!retransmit) o.next_tx = end;
  o.last_sent_any = now;
  // Piggybacked -- except the answer to a probe, which goes in an acknowledgement of its own
  // (a data datagram's seq is its own).
  if (o.probe_to_answer == 0) {
    o.owed = 0;
    o.urgent = false;
  }
}

void engine::transmit_new(int q, std::uint64_t now) {
  peer& o = peers_[static_cast<std::size_t>(q)];
  const std::uint64_t first = o.next_tx;
  std::uint64_t end = first;
  std::size_t flight = o.in_flight;
  while (end < o.next_seq) {
    const std::size_t len = o.desc[end & slot_mask].len;
    if (flight != 0 && flight + len > o.window_bytes) break;
    // Never more in flight than the selective acknowledgement describes: the
    // fate of every datagram in flight is then known from each acknowledgement,
    // and a timeout resends only what is missing.
    if (end - o.una > sack_span) break;
    flight += len;
    ++end;
  }
  if (end > first) transmit(q, first, end, now, false);
}

void engine::send_ack(int q, std::uint64_t now, bool heartbeat, dgram_type type) {
  peer& p = peers_[static_cast<std::size_t>(q)];
  alignas(8) wire_header h{};
  h.magic = wire_magic;
  h.type = static_cast<std::uint8_t>(type);
  if (type == dgram_type::probe) {
    h.seq = ++p.probe_number;
    p.probe_waiting = h.seq;
    p.probe_sent_at = now;
  } else {
    h.seq = p.probe_to_answer;
    p.probe_to_answer = 0;
  }
  h.job = limits_.job;
  h.src = static_cast<std::uint16_t>(limits_.myproc);
  h.dst = static_cast<std::uint16_t>(q);
  fill_ack_fields(q, h, now);
  h.tag = compute_tag(keys_, h, nullptr, 0, nullptr);
  // A probe goes twice: were its one copy (or the answer) lost, the data it asks about would
  // wait for another, doubled, timeout (at 5 % loss, about one probe in ten).
  const int copies = type == dgram_type::probe ? 2 : 1;
  const unsigned char* bufs[2] = {reinterpret_cast<const unsigned char*>(&h),
                                  reinterpret_cast<const unsigned char*>(&h)};
  const std::size_t lens[2] = {header_bytes, header_bytes};
  link_.send(link_.context, q, bufs, lens, copies);
  stats_.datagrams_sent += static_cast<std::uint64_t>(copies);
  stats_.bytes_sent += header_bytes * static_cast<std::uint64_t>(copies);
  if (type == dgram_type::probe) {
    ++stats_.probes_sent;
  } else {
    ++stats_.acks_sent;
  }
  if (heartbeat) ++stats_.heartbeats_sent;
  // Our acknowledgements went with it -- but a probe of ours does not answer the peer's.
  if (p.probe_to_answer == 0) {
    p.owed = 0;
    p.urgent = false;
  }
  p.last_sent_any = now;
}

// ---- receiving -----------------------------------------------------------------

void engine::rtt_sample(peer& o, std::uint64_t r) noexcept {
  if (o.srtt == 0) {
    o.srtt = r;
    o.rttvar = r / 2;
  } else {
    const std::uint64_t dev = o.srtt > r ? o.srtt - r : r - o.srtt;
    o.rttvar = (3 * o.rttvar + dev) / 4;
    o.srtt = (7 * o.srtt + r) / 8;
  }
  // A sample may be short (an acknowledgement that rode on a reply) while the
  // next acknowledgement waits for the delayed-acknowledgement timer: the
  // timeout always leaves room for that wait and the timer's granularity.
  const std::uint64_t floor = o.srtt + config_.ack_delay_ns + 2 * config_.tick_ns;
  o.rto = std::clamp(std::max(o.srtt + 4 * o.rttvar, floor), config_.rto_min_ns,
                     config_.rto_max_ns);
}

bool engine::apply_ack(int q, const wire_header& h, std::uint64_t now) {
  peer& o = peers_[static_cast<std::size_t>(q)];
  const std::uint64_t a = h.ack;
  if (a == 0 || a > o.next_tx) return false;
  // Selective bits may only name datagrams we have sent.
  for (int w = 0; w < 2; ++w) {
    const std::uint64_t base = a + 1 + 64 * static_cast<std::uint64_t>(w);
    const std::uint64_t valid = o.next_tx > base ? o.next_tx - base : 0;
    if (valid < 64 && (h.sack[w] >> valid) != 0) return false;
  }
  // The round-trip sample: the highest datagram this acknowledgement names,
  // if this acknowledgement is the first to name it and it was sent once
  // (Karn), less the time the peer held the acknowledgement (ack_delay).
  // Lower datagrams newly acknowledged are no samples: their acknowledgement
  // may have been waiting for a retransmission to fill a hole.
  std::uint64_t largest = a - 1;
  for (int w = 1; w >= 0; --w)
    if (h.sack[w] != 0) {
      largest = a + 64 * static_cast<std::uint64_t>(w) + 64 -
                static_cast<std::uint64_t>(std::countl_zero(h.sack[w]));
      break;
    }
  std::uint64_t sample = 0;
  if (largest >= o.una) {
    const out_desc& e = o.desc[largest & slot_mask];
    if (!e.sacked && e.retx == 0 && e.sent) sample = largest;
  }
  if (a > o.una) {
    o.last_progress = now;
    bool recovering = false, originals = false;
    for (std::uint64_t s = o.una; s < a; ++s) {
      const out_desc& e = o.desc[s & slot_mask];
      if (!e.sacked) o.in_flight -= e.len;
      recovering = recovering || e.retx != 0;
      originals = originals || (e.retx == 0 && !e.sacked);
    }
    o.una = a;
    o.head = o.una < o.next_seq ? o.desc[o.una & slot_mask].at : o.tail;
    // A retransmission arrived and the next datagram is still missing: after
    // a loss of several in a row (the tail of a burst), send it now rather
    // than after another timeout (NewReno's partial acknowledgement). Not when
    // this acknowledgement also names datagrams sent once and not known to
    // have arrived before: their first transmissions are arriving (the
    // retransmission was needless, the peer was only slow: off the CPU), and
    // the next one is on its way too. Resending it then would resend, one
    // acknowledgement at a time, everything that was in flight.
    if (recovering && !originals && o.una < o.next_tx) {
      out_desc& e = o.desc[o.una & slot_mask];
      if (!e.sacked && e.sent && now - e.last_sent >= std::max<std::uint64_t>(o.srtt, 20'000)) {
        ++e.retx;
        ++stats_.retransmits_fast;
        transmit(q, o.una, o.una + 1, now, true);
      }
    }
  }
  std::uint64_t highest = 0;
  for (int w = 0; w < 2; ++w) {
    std::uint64_t bits = h.sack[w];
    while (bits != 0) {
      const int i = std::countr_zero(bits);
      bits &= bits - 1;
      const std::uint64_t s = a + 1 + 64 * static_cast<std::uint64_t>(w) + static_cast<std::uint64_t>(i);
      if (s < o.una) continue;
      out_desc& e = o.desc[s & slot_mask];
      if (!e.sacked) {
        e.sacked = true;
        o.in_flight -= e.len;
        o.last_progress = now;
      }
      highest = s;
    }
  }
  o.highest_sacked = std::max(o.highest_sacked, highest);
  if (sample != 0) {
    const out_desc& e = o.desc[sample & slot_mask];
    const std::uint64_t held = std::uint64_t{h.ack_delay} * 1000;
    if (now >= e.last_sent + held) rtt_sample(o, now - e.last_sent - held);
  }
  if (highest != 0) {
    // Fast retransmission: holes well below what has arrived, at most once a round trip.
    const std::uint64_t gap = std::max<std::uint64_t>(o.srtt, 20'000);
    for (std::uint64_t s = o.una; s + static_cast<std::uint64_t>(config_.dupthresh) <= highest; ++s) {
      out_desc& e = o.desc[s & slot_mask];
      if (e.sacked || !e.sent || now - e.last_sent < gap) continue;
      ++e.retx;
      ++stats_.retransmits_fast;
      transmit(q, s, s + 1, now, true);
    }
  }
  if (o.next_tx < o.next_seq) transmit_new(q, now);
  return true;
}

void engine::answered(int q, std::uint64_t probe, std::uint64_t now) {
  peer& o = peers_[static_cast<std::size_t>(q)];
  if (probe != o.probe_waiting) return;  // an earlier probe's answer: the later one's decides
  o.probe_waiting = 0;
  // The answer came at once from a peer that read the probe: its round trip is how long the
  // peer took to respond (a peer off the CPU lengthens the timeout for a while, as it should).
  rtt_sample(o, now - o.probe_sent_at);
  resend_missing(q, now);
}

void engine::resend_missing(int q, std::uint64_t now) {
  // The answer (apply_ack has taken in its acknowledgements) describes what the peer had when
  // it read the probe. What was sent before the probe and is not named is lost (or, with
  // reordering, still on its way: then a needless copy): resend it.
  peer& o = peers_[static_cast<std::size_t>(q)];
  for (std::uint64_t s = o.una; s < o.next_tx && (s == o.una || s < o.highest_sacked); ++s) {
    out_desc& e = o.desc[s & slot_mask];
    if (e.sacked || e.last_sent > o.probe_sent_at) continue;
    ++e.retx;
    ++stats_.retransmits_timeout;
    transmit(q, s, s + 1, now, true);
  }
}

void engine::mark_received(peer& in, std::uint64_t seq, std::uint64_t now) noexcept {
  if (seq > in.largest_seq) {
    in.largest_seq = seq;
    in.largest_at = now;
  }
  in.bitmap[(seq & (receive_window - 1)) >> 6] |= std::uint64_t{1} << (seq & 63);
  while (has(in, in.cum)) {
    in.bitmap[(in.cum & (receive_window - 1)) >> 6] &= ~(std::uint64_t{1} << (in.cum & 63));
    ++in.cum;
  }
}

void engine::owe_ack(int q, peer& in, std::uint64_t now, bool urgent) {
  if (in.owed == 0) in.owed_since = now;
  ++in.owed;
  in.urgent = in.urgent || urgent;
  if (!in.in_owed) {
    in.in_owed = true;
    owed_.push_back(q);
  }
}

int engine::deliver(am_sink sink, const am_message& m, bool internal) {
  ++stats_.messages_delivered;
  if (internal) {
    internal_.deliver(internal_.context, m);
  } else {
    sink.deliver(sink.context, m);
  }
  return 1;
}

int engine::receive(const unsigned char* data, std::size_t len, am_sink sink, std::uint64_t now) {
  parsed_datagram p;
  const drop_reason r = parse(keys_, limits_, data, len, p);
  if (r != drop_reason::none) {
    ++stats_.dropped[static_cast<int>(r)];
    return 0;
  }
  const wire_header& h = *p.header;
  const int q = h.src;
  peer& in = peers_[static_cast<std::size_t>(q)];
  if ((h.flags & flag_no_ack) == 0 && !apply_ack(q, h, now)) {
    ++stats_.dropped[static_cast<int>(drop_reason::bad_ack)];
    return 0;
  }
  ++stats_.datagrams_received;
  stats_.bytes_received += len;
  if (h.type == static_cast<std::uint8_t>(dgram_type::probe)) {
    in.probe_to_answer = h.seq;
    owe_ack(q, in, now, true);
    return 0;
  }
  if (h.type != static_cast<std::uint8_t>(dgram_type::data)) {
    if (h.seq != 0) answered(q, h.seq, now);
    return 0;
  }

  const bool internal = (h.flags & flag_internal) != 0;
  if (internal ? h.handler >= internal_opcodes : h.handler >= handler_limit_) {
    // Not registered here (yet): refuse without acknowledging; the sender retries.
    ++stats_.dropped[static_cast<int>(drop_reason::bad_handler)];
    return 0;
  }
  const std::uint64_t s = h.seq;
  if (s < in.cum || has(in, s)) {
    ++stats_.duplicates;
    owe_ack(q, in, now, true);  // its acknowledgement may have been lost
    return 0;
  }
  if (s >= in.cum + receive_window) {
    ++stats_.out_of_window;
    return 0;
  }
  const am_kind kind = kind_of(h);
  const bool to_address = kind == am_kind::long_msg && !internal;
  const bool request = (h.flags & flag_request) != 0;

  if ((h.flags & flag_first) != 0 && h.payload == h.total) {
    // The whole message in one datagram.
    if (to_address && h.total != 0)
      deposit(reinterpret_cast<void*>(static_cast<std::uintptr_t>(h.address)), p.payload, h.payload);
    mark_received(in, s, now);
    owe_ack(q, in, now, in.cum <= s);
    am_message m{q, static_cast<handler_id>(h.handler), kind, request, h.nargs, p.args,
                 nullptr, 0};
    if (kind == am_kind::medium_msg) {
      m.payload = const_cast<unsigned char*>(p.payload);
      m.length = h.total;
    } else if (kind == am_kind::long_msg) {
      m.payload = to_address ? reinterpret_cast<void*>(static_cast<std::uintptr_t>(h.address))
                             : const_cast<unsigned char*>(p.payload);
      m.length = h.total;
    }
    return deliver(sink, m, internal);
  }

  // One fragment of a larger message.
  const std::uint8_t flags = h.flags & ~flag_first;
  auto it = std::find_if(in.partial.begin(), in.partial.end(),
                         [&](const reassembly& e) { return e.msg_seq == h.msg_seq; });
  if (it == in.partial.end()) {
    reassembly e;
    e.msg_seq = h.msg_seq;
    e.total = h.total;
    e.handler = h.handler;
    e.flags = flags;
    e.address = h.address;
    if (!to_address) e.buffer.reset(new unsigned char[h.total]);
    in.partial.push_back(std::move(e));
    it = in.partial.end() - 1;
  } else if (it->total != h.total || it->handler != h.handler || it->flags != flags ||
             it->address != h.address || it->received + h.payload > it->total) {
    ++stats_.dropped[static_cast<int>(drop_reason::malformed)];
    return 0;
  }
  if (to_address) {
    deposit(reinterpret_cast<void*>(static_cast<std::uintptr_t>(h.address + h.offset)), p.payload,
            h.payload);
  } else {
    std::memcpy(it->buffer.get() + h.offset, p.payload, h.payload);
  }
  if ((h.flags & flag_first) != 0) {
    it->have_first = true;
    it->nargs = h.nargs;
    if (h.nargs != 0) std::memcpy(it->args, p.args, 8 * std::size_t{h.nargs});
  }
  it->received += h.payload;
  mark_received(in, s, now);
  owe_ack(q, in, now, in.cum <= s);
  if (it->received != it->total || !it->have_first) return 0;

  reassembly done = std::move(*it);
  *it = std::move(in.partial.back());
  in.partial.pop_back();
  am_message m{q, static_cast<handler_id>(done.handler), kind, request, done.nargs,
               done.nargs != 0 ? done.args : nullptr, nullptr, done.total};
  m.payload = to_address ? reinterpret_cast<void*>(static_cast<std::uintptr_t>(done.address))
                         : static_cast<void*>(done.buffer.get());
  return deliver(sink, m, internal);
}

int engine::drain_self(am_sink sink) {
  int delivered = 0;
  for (std::size_t n = self_.size(); n > 0 && !self_.empty(); --n) {
    self_message m = std::move(self_.front());
    self_.pop_front();
    am_message msg{limits_.myproc, static_cast<handler_id>(m.handler), m.kind, m.request,
                   m.nargs, m.nargs != 0 ? m.args : nullptr, nullptr, 0};
    if (m.kind == am_kind::long_msg && !m.internal) {
      msg.payload = m.dst;
      msg.length = m.len;
    } else if (m.kind != am_kind::short_msg) {
      msg.payload = m.payload.data();
      msg.length = m.payload.size();
    }
    delivered += deliver(sink, msg, m.internal);
  }
  return delivered;
}

void engine::flush_acks(std::uint64_t now) {
  for (std::size_t i = 0; i < owed_.size();) {
    const int q = owed_[i];
    peer& in = peers_[static_cast<std::size_t>(q)];
    if (in.owed != 0 && (in.urgent || in.owed >= static_cast<std::uint32_t>(config_.ack_every)))
      send_ack(q, now, false);
    if (in.owed == 0) {
      in.in_owed = false;
      owed_[i] = owed_.back();
      owed_.pop_back();
    } else {
      ++i;
    }
  }
}

// ---- timers --------------------------------------------------------------------

void engine::run_timers(std::uint64_t now) {
  next_tick_ = now + config_.tick_ns;
  // Delayed acknowledgements.
  for (std::size_t i = 0; i < owed_.size();) {
    const int q = owed_[i];
    peer& in = peers_[static_cast<std::size_t>(q)];
    if (in.owed != 0 && now - in.owed_since >= config_.ack_delay_ns) send_ack(q, now, false);
    if (in.owed == 0) {
      in.in_owed = false;
      owed_[i] = owed_.back();
      owed_.pop_back();
    } else {
      ++i;
    }
  }
  // Retransmission on timeout, with exponential back-off per datagram.
  for (std::size_t i = 0; i < active_.size();) {
    const int q = active_[i];
    peer& o = peers_[static_cast<std::size_t>(q)];
    if (o.una == o.next_seq) {
      o.in_active = false;
      active_[i] = active_.back();
      active_.pop_back();
      continue;
    }
    // The oldest unacknowledged datagram carries the timer (measured from the
    // later of its transmission, the last acknowledgement that made progress
    // -- while the peer drains a long queue of ours, nothing times out -- and
    // the last probe). On expiry nothing is resent yet: a probe asks the peer
    // what it has, and its answer (answered) resends what is missing. A peer
    // that was only slow to read (off the CPU, as this 2-core VM's processes
    // are for up to ~10 ms now and then) then costs probes, never a resent
    // datagram. The timeout doubles per probe and per retransmission.
    if (o.una < o.next_tx) {
      out_desc& e = o.desc[o.una & slot_mask];
      const std::uint64_t rto = std::min(
          o.rto << std::min<std::uint32_t>(std::max(e.retx, e.probes), 20), config_.rto_max_ns);
      if (now - std::max({e.last_sent, o.last_progress, o.probe_sent_at}) >= rto) {
        ++e.probes;
        send_ack(q, now, false, dgram_type::probe);
      }
    }
    if (o.next_tx < o.next_seq) transmit_new(q, now);
    ++i;
  }
  // Heartbeats, less often.
  if (now < next_slow_) return;
  next_slow_ = now + std::min<std::uint64_t>(config_.heartbeat_ns / 4, 50'000'000);
  for (int q = 0; q < limits_.procs; ++q) {
    if (q == limits_.myproc) continue;
    if (now - peers_[static_cast<std::size_t>(q)].last_sent_any >= config_.heartbeat_ns)
      send_ack(q, now, true);
  }
}

bool engine::all_acknowledged() const noexcept {
  if (!self_.empty()) return false;
  for (const auto& p : peers_)
    if (p.una != p.next_seq) return false;
  return true;
}

}  // namespace splitc::backends::udp
