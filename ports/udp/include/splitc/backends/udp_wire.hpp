// The udp backend's datagram format and its validation.
//
// Every datagram is a 96-byte header, then (first fragment of a message only)
// the argument words, then payload bytes. All fields are little-endian (the
// backend runs on x86-64 and AArch64 Linux, both little-endian). The header
// ends with a 64-bit keyed tag:
//
//   tag = SipHash-2-4(k_sip, header[0..88) || body)            body <= 512 bytes
//   tag = SipHash-2-4(k_sip, header[0..88) || NH2(k_nh, body))  larger bodies
//
// body = argument words + payload. NH2 is two lanes of the NH universal hash
// (UMAC's, 32-bit words, Toeplitz-shifted keys) keyed with a per-job key
// stream; SipHash over a secret-keyed universal digest is the Carter-Wegman
// "hash then PRF" construction. NH runs at tens of GB/s where SipHash over a
// 64 KiB payload would cost ~34 us per datagram (docs/udp.md).
//
// parse() checks everything a datagram claims before the receiver acts on
// it: sizes, the job, processor numbers, kinds, argument counts, fragment
// offsets and lengths, and the tag. A datagram that fails any check is
// dropped and counted; nothing is written anywhere before it passes.
#pragma once

#include <splitc/port/am.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace splitc::backends::udp {

inline constexpr std::uint32_t wire_magic = 0x31554353;  // "SCU1"

/// Datagram types.
enum class dgram_type : std::uint8_t {
  data = 1,       ///< one fragment of a message (sequenced, acknowledged)
  ack = 2,        ///< acknowledgement only; also the heartbeat and a probe's answer
  probe = 3,      ///< acknowledgement that asks for one back at once (a timeout's question)
};

/// Header flags.
enum : std::uint8_t {
  flag_request = 0x01,   ///< data: a request (else a reply)
  flag_internal = 0x02,  ///< data: the backend's own message (bootstrap), not a core handler
  flag_first = 0x04,     ///< data: first fragment; carries the argument words
  flag_no_ack = 0x08,    ///< the ack fields carry nothing (heartbeat from the helper thread)
  flag_kind_shift = 4,   ///< data: bits 4-5 hold the am_kind
  flag_known = 0x3f,
};

/// Largest UDP payload over IPv4.
inline constexpr std::size_t max_datagram = 65507;

struct wire_header {
  std::uint32_t magic;
  std::uint8_t type;
  std::uint8_t flags;
  std::uint8_t nargs;      ///< argument words after the header (first fragment only)
  std::uint8_t reserved0;  ///< zero
  std::uint64_t job;       ///< the job's identifier
  std::uint16_t src;       ///< sending processor
  std::uint16_t dst;       ///< receiving processor
  std::uint16_t handler;   ///< data: handler index (or internal opcode)
  std::uint16_t reserved1; ///< zero
  std::uint32_t payload;   ///< payload bytes in this datagram (after the argument words)
  std::uint32_t ack_delay; ///< µs between the arrival of the highest datagram acknowledged
                           ///< here and this datagram's sending (0 with flag_no_ack)
  std::uint64_t seq;       ///< data: sequence number (from 1, per ordered pair); probe: its
                           ///< number (from 1); ack: the number of the probe it answers, or 0
  std::uint64_t ack;       ///< every seq < ack from dst to src has arrived
  std::uint64_t sack[2];   ///< bit i (of 128): seq ack+1+i has arrived
  std::uint64_t msg_seq;   ///< data: sequence number of the message's first fragment
  std::uint32_t offset;    ///< data: offset of this fragment's payload in the message
  std::uint32_t total;     ///< data: payload bytes of the whole message
  std::uint64_t address;   ///< data, long: where the message's payload goes at dst
  std::uint64_t tag;       ///< keyed tag (see above)
};
static_assert(sizeof(wire_header) == 96);
inline constexpr std::size_t header_bytes = sizeof(wire_header);
inline constexpr std::size_t tagged_header_bytes = offsetof(wire_header, tag);

/// Bodies up to this many bytes are SipHashed directly; larger ones through NH2.
inline constexpr std::size_t direct_tag_limit = 512;

/// The job's keys: SipHash key and the NH key stream (enough for the largest body).
/// Copies share the key stream; the last copy to go frees it.
struct wire_keys {
  std::array<unsigned char, 16> sip{};
  std::array<unsigned char, 32> nh_seed{};
  std::shared_ptr<const std::uint32_t[]> nh;  ///< nh_key_words() words, derived from nh_seed

  static constexpr std::size_t nh_key_words() { return (max_datagram + 128) / 4 + 32; }
};

/// A 32-byte job secret, as it travels in SPLITC_UDP_SECRET (hex).
using job_secret = std::array<unsigned char, 32>;

/// Derive the keys from the secret (allocates the NH key stream, 64 KiB).
wire_keys derive_keys(const job_secret& secret);

/// The NH2 digest of `len` bytes (two 64-bit lanes).
void nh2_digest(const wire_keys& keys, const unsigned char* body, std::size_t len,
                std::uint64_t out[2]) noexcept;

/// The tag of a datagram whose body (args + payload) is `body`/`body_len` and
/// whose header is `h`. When `digest` is non-null it holds NH2(body) already
/// (bodies above direct_tag_limit) and the body is not read.
std::uint64_t compute_tag(const wire_keys& keys, const wire_header& h, const unsigned char* body,
                          std::size_t body_len, const std::uint64_t* digest) noexcept;

/// Copy `len` bytes from src to dst (when dst is non-null) and add their NH2
/// to `acc` in the same pass, as the part of a body that starts
/// `key_offset_bytes` (a multiple of 8) into it: the digest of args + payload
/// is the digest of the args (offset 0) plus that of the payload (offset 8 * nargs).
void copy_and_digest(const wire_keys& keys, unsigned char* dst, const unsigned char* src,
                     std::size_t len, std::size_t key_offset_bytes, std::uint64_t acc[2]) noexcept;

/// Copy a long message's fragment to its destination: large ones with
/// non-temporal stores (a bulk destination is usually not in cache, and
/// streaming saves reading each line before writing it).
void deposit(void* dst, const void* src, std::size_t len) noexcept;

/// Why a datagram was dropped; each has a counter in the stats.
enum class drop_reason : std::uint8_t {
  none,
  short_datagram,  ///< shorter than a header, or lengths that do not add up
  bad_magic,
  bad_job,         ///< another job's datagram (or a forgery naming no job of ours)
  bad_processor,   ///< source or destination out of range
  malformed,       ///< unknown type, flags, kind or reserved bits; args on a later fragment
  bad_length,      ///< payload, offset or total out of range for the kind
  bad_tag,
  bad_ack,         ///< acknowledges data never sent
  bad_handler,     ///< names a handler not registered here (retried by the sender)
  count
};
const char* drop_reason_name(drop_reason r) noexcept;

/// Limits parse() checks against.
struct parse_limits {
  int myproc = 0;
  int procs = 1;
  std::uint64_t job = 0;
  std::size_t max_medium = 0;
  std::size_t max_long = 0;
  std::size_t max_internal = 0;
};

/// A validated datagram: pointers into the caller's buffer.
struct parsed_datagram {
  const wire_header* header = nullptr;
  const am_word* args = nullptr;          ///< nargs words (first fragment), else nullptr
  const unsigned char* payload = nullptr;  ///< header->payload bytes
};

/// Validate one datagram of `len` bytes at `data` (8-byte aligned). Returns
/// drop_reason::none and fills `out` when it may be acted on.
drop_reason parse(const wire_keys& keys, const parse_limits& limits, const unsigned char* data,
                  std::size_t len, parsed_datagram& out) noexcept;

inline am_kind kind_of(const wire_header& h) noexcept {
  return static_cast<am_kind>((h.flags >> flag_kind_shift) & 3);
}

}  // namespace splitc::backends::udp
