// The mpi backend's wire format and small helpers shared by its sources.
//
// A packet (one MPI message on `packet_tag`, at most tuning::packet_bytes):
//
//   packet_header (16 bytes)
//   [destination address, 8 bytes]      long messages only
//   argument words, 8 bytes each        nargs of them
//   [payload]                           when it travels inline
//
// When the payload does not travel inline, it follows as one MPI message on
// `data_tag` of the backend's second communicator (mode_data), or is already
// at its destination (mode_in_place, written by MPI_Put and flushed before
// the packet was sent).
//
// A compact packet: a short message whose header fits in the MPI tag (the
// common request and reply, docs/mpi.md "Compact packets") travels as its
// argument words alone, tag = compact_tag(...):
//
//   bits 0-3 argument words, bit 4 request, bits 5-7 credits returned,
//   bits 8-23 handler, bit 24 set (so it is never packet_tag).
//
// The sender is the message's MPI source. The receiver writes the header it
// stands for in front of the words (receives land `header_room` bytes into
// their buffer), so the rest of the backend sees an ordinary packet.
#pragma once

#include <splitc/port/am.hpp>

#include <cstddef>
#include <cstdint>

namespace splitc::backends::mpi::wire {

struct packet_header {
  std::uint16_t handler;
  std::uint8_t type;     ///< kind | request | mode, or a control type
  std::uint8_t nargs;
  std::uint32_t credits; ///< credits returned to the receiver of this packet
  std::uint32_t length;  ///< payload bytes (<= max_long); for control packets, their value
  std::int32_t source;   ///< the sender (so the receive needs no MPI_Status)
};
static_assert(sizeof(packet_header) == 16);

inline constexpr std::uint8_t kind_mask = 0x03;     // am_kind
inline constexpr std::uint8_t request_bit = 0x04;   // a request (counted against credits)
inline constexpr std::uint8_t mode_shift = 3;
inline constexpr std::uint8_t mode_mask = 0x18;
inline constexpr std::uint8_t mode_inline = 0;
inline constexpr std::uint8_t mode_data = 1;
inline constexpr std::uint8_t mode_in_place = 2;
inline constexpr std::uint8_t control_bit = 0x80;   // backend-private packets
// (bits 0x60 are unused and always zero: a packet with them set is not ours)
inline constexpr std::uint8_t control_credit = 0x80;   // only returns credits
inline constexpr std::uint8_t control_barrier = 0x81;  // dissemination token; length = round

constexpr std::uint8_t packet_type(am_kind kind, bool is_request, std::uint8_t mode) noexcept {
  return static_cast<std::uint8_t>(static_cast<std::uint8_t>(kind) |
                                   (is_request ? request_bit : 0) |
                                   static_cast<std::uint8_t>(mode << mode_shift));
}
constexpr am_kind kind_of(std::uint8_t type) noexcept {
  return static_cast<am_kind>(type & kind_mask);
}
constexpr std::uint8_t mode_of(std::uint8_t type) noexcept {
  return static_cast<std::uint8_t>((type & mode_mask) >> mode_shift);
}

inline constexpr int compact_bit = 1 << 24;
inline constexpr int compact_tag_max = (compact_bit << 1) - 1;  ///< MPI_TAG_UB needed
inline constexpr int compact_credits_max = 7;
inline constexpr std::size_t header_room = sizeof(packet_header);

constexpr int compact_tag(std::uint16_t handler, bool is_request, int credits, int nargs) noexcept {
  return compact_bit | (static_cast<int>(handler) << 8) | (credits << 5) |
         (is_request ? 1 << 4 : 0) | nargs;
}
constexpr bool is_compact(int tag) noexcept { return (tag & compact_bit) != 0; }
/// A tag that could be a compact packet's (a foreign message's may not be).
constexpr bool compact_tag_ok(int tag) noexcept {
  return tag >= 0 && (tag >> 25) == 0 && is_compact(tag) && (tag & 0x0f) <= am_max_args;
}
constexpr int compact_nargs(int tag) noexcept { return tag & 0x0f; }
constexpr bool compact_is_request(int tag) noexcept { return (tag & (1 << 4)) != 0; }
constexpr int compact_credits(int tag) noexcept { return (tag >> 5) & 0x07; }
constexpr std::uint16_t compact_handler(int tag) noexcept {
  return static_cast<std::uint16_t>((tag >> 8) & 0xffff);
}

/// Bytes before the payload.
constexpr std::size_t prefix_bytes(am_kind kind, int nargs) noexcept {
  return sizeof(packet_header) + (kind == am_kind::long_msg ? 8 : 0) +
         8 * static_cast<std::size_t>(nargs);
}

}  // namespace splitc::backends::mpi::wire
