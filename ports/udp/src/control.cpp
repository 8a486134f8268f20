// The udp backend's control channel and environment helpers (udp_control.hpp).
#include <splitc/backends/udp_control.hpp>
#include <splitc/port/fail.hpp>

#include <sodium.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace splitc::backends::udp {
namespace {

std::uint64_t control_tag(const wire_keys& keys, const control_frame& f, const void* payload,
                          std::size_t len) {
  std::vector<unsigned char> input(sizeof f + len);
  std::memcpy(input.data(), &f, sizeof f);
  if (len != 0) std::memcpy(input.data() + sizeof f, payload, len);
  std::uint64_t tag;
  crypto_shorthash(reinterpret_cast<unsigned char*>(&tag), input.data(), input.size(),
                   keys.sip.data());
  return tag;
}

bool write_all(int fd, const void* data, std::size_t len) {
  const auto* p = static_cast<const unsigned char*>(data);
  while (len != 0) {
    const ssize_t n = ::send(fd, p, len, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    len -= static_cast<std::size_t>(n);
  }
  return true;
}

bool read_all(int fd, void* data, std::size_t len) {
  auto* p = static_cast<unsigned char*>(data);
  while (len != 0) {
    const ssize_t n = ::recv(fd, p, len, MSG_WAITALL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    len -= static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

bool write_control(int fd, const wire_keys& keys, std::uint64_t job, control_type type,
                   std::uint32_t rank, const void* payload, std::size_t len) {
  if (len > control_max_payload) return false;
  const control_frame f{control_magic, static_cast<std::uint32_t>(type),
                        static_cast<std::uint32_t>(len), rank, job};
  const std::uint64_t tag = control_tag(keys, f, payload, len);
  std::vector<unsigned char> out(sizeof f + len + sizeof tag);
  std::memcpy(out.data(), &f, sizeof f);
  if (len != 0) std::memcpy(out.data() + sizeof f, payload, len);
  std::memcpy(out.data() + sizeof f + len, &tag, sizeof tag);
  return write_all(fd, out.data(), out.size());
}

bool read_control(int fd, const wire_keys& keys, std::uint64_t job, control_frame& frame,
                  std::vector<unsigned char>& payload) {
  if (!read_all(fd, &frame, sizeof frame)) return false;
  if (frame.magic != control_magic || frame.job != job || frame.length > control_max_payload)
    return false;
  payload.resize(frame.length);
  std::uint64_t tag = 0;
  if (frame.length != 0 && !read_all(fd, payload.data(), frame.length)) return false;
  if (!read_all(fd, &tag, sizeof tag)) return false;
  return tag == control_tag(keys, frame, payload.data(), payload.size());
}

std::string to_hex(const unsigned char* data, std::size_t len) {
  static const char digits[] = "0123456789abcdef";
  std::string s(2 * len, '0');
  for (std::size_t i = 0; i < len; ++i) {
    s[2 * i] = digits[data[i] >> 4];
    s[2 * i + 1] = digits[data[i] & 15];
  }
  return s;
}

bool from_hex(const std::string& hex, unsigned char* out, std::size_t len) {
  if (hex.size() != 2 * len) return false;
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (std::size_t i = 0; i < len; ++i) {
    const int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    out[i] = static_cast<unsigned char>(hi << 4 | lo);
  }
  return true;
}

}  // namespace splitc::backends::udp
