// The control channel between the udp launcher's rendezvous and each
// process: one TCP connection per process for the whole job, carrying
// tagged frames. A process says HELLO (its UDP endpoint); once all have, the
// rendezvous sends everyone the TABLE of endpoints. At the end each process
// says DONE once everything it sent has been acknowledged, and the
// rendezvous answers RELEASE when all have (so nobody leaves while a peer may
// still need its acknowledgements). ABORT, or the connection closing, ends a
// process: nothing outlives its launcher.
//
// Also: the environment helpers the backend and the launcher share.
#pragma once

#include <splitc/backends/udp_wire.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace splitc::backends::udp {

enum class control_type : std::uint32_t { hello = 1, table = 2, done = 3, release = 4, abort = 5 };

struct control_frame {
  std::uint32_t magic;
  std::uint32_t type;
  std::uint32_t length;  ///< payload bytes after this header; a 64-bit tag follows them
  std::uint32_t rank;
  std::uint64_t job;
};
static_assert(sizeof(control_frame) == 24);
inline constexpr std::uint32_t control_magic = 0x43554353;  // "SCUC"
inline constexpr std::size_t control_max_payload = std::size_t{1} << 20;

/// Write one frame (all of it); false when the connection is gone.
bool write_control(int fd, const wire_keys& keys, std::uint64_t job, control_type type,
                   std::uint32_t rank, const void* payload, std::size_t len);

/// Read one frame (blocking); false on end of file, error, or a frame that
/// fails validation (wrong magic, job, size or tag).
bool read_control(int fd, const wire_keys& keys, std::uint64_t job, control_frame& frame,
                  std::vector<unsigned char>& payload);

// ---- hex ---------------------------------------------------------------------------

std::string to_hex(const unsigned char* data, std::size_t len);
/// False unless `hex` is exactly 2*len hex digits.
bool from_hex(const std::string& hex, unsigned char* out, std::size_t len);

}  // namespace splitc::backends::udp
