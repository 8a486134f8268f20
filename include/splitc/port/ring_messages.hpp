// Porting kit: active messages as records of a shared-memory ring
// (port/shm_ring.hpp): writing one, and delivering what a ring holds. The smp
// backend's wire, and the same-host layer's between processes of one host
// under a network backend (port/same_host.hpp).
//
// A record: the 16-byte header (handler, nargs, kind, payload length), for a
// long message its destination address, the argument words, the payload. A
// long message whose destination the sender can map is copied there by the
// sender, and only the notification travels (flag `record_in_place`). A long
// message too large for one record travels as pieces (flag `record_piece`:
// copied to their destination, delivered to nobody) and then its
// notification, all on one ring, so the pieces have landed when it is
// delivered (port/same_host.hpp).
#pragma once

#include <splitc/port/am.hpp>
#include <splitc/port/shm_ring.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace splitc::port {

/// Set on a long record whose payload the sender already copied to its destination.
inline constexpr std::uint8_t record_in_place = 0x80;
/// Set on a long record carrying one piece of a larger message's payload: the
/// receiver copies it to its destination and delivers nothing.
inline constexpr std::uint8_t record_piece = 0x40;

/// Write one message into `ring`: kind record_short, record_medium (payload
/// src, len) or record_long (payload src, len for dst; with record_piece, a
/// piece of one). no_resource when the ring is full. Inlined into every
/// caller: with the caller's constant n and kind the copy becomes a few
/// fixed-size stores.
[[gnu::always_inline]] inline am_status ring_send(ring_producer& ring, handler_id h,
                                                  const am_word* a, int n, std::uint8_t kind,
                                                  const void* src, std::size_t len, void* dst) {
  const bool has_dst = (kind & record_kind_mask) == record_long;
  const std::size_t prefix = record_prefix(n, has_dst);
  unsigned char* r = ring.reserve(prefix + len);
  if (r == nullptr) return am_status::no_resource;
  auto* hdr = reinterpret_cast<record_header*>(r);
  hdr->handler = static_cast<std::uint16_t>(h);
  hdr->nargs = static_cast<std::uint8_t>(n);
  hdr->flags = kind;
  hdr->length = static_cast<std::uint32_t>(len);
  unsigned char* p = r + sizeof(record_header);
  if (has_dst) {
    std::memcpy(p, &dst, 8);
    p += 8;
  }
  copy_words(p, a, n);
  if (len != 0) std::memcpy(p + 8 * static_cast<std::size_t>(n), src, len);
  ring.publish(r);
  return am_status::ok;
}

/// A long message whose destination dst (the receiver's address) the sender
/// maps at `mapped`: the payload is copied there, the record carries only the
/// notification. With `mapped` nullptr the payload is there already (its
/// pieces went before on this ring).
inline am_status ring_send_in_place(ring_producer& ring, handler_id h, const am_word* a, int n,
                                    const void* src, std::size_t len, void* dst, void* mapped) {
  unsigned char* r = ring.reserve(record_prefix(n, true));
  if (r == nullptr) return am_status::no_resource;
  if (mapped != nullptr) std::memcpy(mapped, src, len);
  auto* hdr = reinterpret_cast<record_header*>(r);
  hdr->handler = static_cast<std::uint16_t>(h);
  hdr->nargs = static_cast<std::uint8_t>(n);
  hdr->flags = record_long | record_in_place;
  hdr->length = static_cast<std::uint32_t>(len);
  std::memcpy(r + sizeof(record_header), &dst, 8);
  copy_words(r + sizeof(record_header) + 8, a, n);
  ring.publish(r);
  return am_status::ok;
}

/// Deliver up to `limit` records of `ring` (from processor `source`) to `sink`
/// (a piece of a long message counts as one, delivered to nobody); returns
/// how many. Bounded, so one busy peer cannot starve the others.
inline int ring_drain(ring_consumer& ring, proc_t source, bool is_request, am_sink sink,
                      int limit = 32) {
  int handled = 0;
  for (; handled < limit; ++handled) {
    record_header* h = ring.peek();
    if (h == nullptr) break;
    const std::uint8_t kind = h->flags & record_kind_mask;
    const bool in_place = (h->flags & record_in_place) != 0;
    auto* p = reinterpret_cast<unsigned char*>(h) + sizeof(record_header);
    void* dst = nullptr;
    if (kind == record_long) {
      std::memcpy(&dst, p, 8);
      p += 8;
    }
    unsigned char* payload = p + 8 * static_cast<std::size_t>(h->nargs);
    if ((h->flags & record_piece) != 0) [[unlikely]] {
      std::memcpy(dst, payload, h->length);
      ring.release(record_prefix(h->nargs, true) + h->length);
      continue;
    }
    am_message m{};
    m.source = source;
    m.handler = static_cast<handler_id>(h->handler);
    m.is_request = is_request;
    m.nargs = h->nargs;
    m.args = reinterpret_cast<const am_word*>(p);
    m.length = h->length;
    if (kind == record_long) {
      m.kind = am_kind::long_msg;
      if (!in_place && h->length != 0) std::memcpy(dst, payload, h->length);
      m.payload = dst;
    } else if (kind == record_medium) {
      m.kind = am_kind::medium_msg;
      m.payload = payload;
    } else {
      m.kind = am_kind::short_msg;
      m.payload = nullptr;
      m.length = 0;
    }
    sink.deliver(sink.context, m);
    const std::size_t carried = (kind == record_long && in_place) ? 0 : h->length;
    ring.release(record_prefix(h->nargs, kind == record_long) + carried);
  }
  return handled;
}

}  // namespace splitc::port
