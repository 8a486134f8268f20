/* The frame check sequence under HPAM's packets (frame.h). */
#include "frame.h"

#include <string.h>
#include <zlib.h>

static uint32_t check_of(const unsigned char *bytes, size_t len) {
  return (uint32_t)crc32(crc32(0L, Z_NULL, 0), bytes, (uInt)len);
}

size_t frame_seal(unsigned char *frame, const void *packet, size_t len) {
  memcpy(frame, packet, len);
  const uint32_t check = check_of(frame, len);
  for (int i = 0; i < FRAME_CHECK_BYTES; ++i) frame[len + (size_t)i] = (unsigned char)(check >> (8 * i));
  return len + FRAME_CHECK_BYTES;
}

void frame_flip(unsigned char *frame, size_t frame_len, uint64_t bit) {
  bit %= (uint64_t)frame_len * 8u;
  frame[bit / 8] ^= (unsigned char)(1u << (bit % 8));
}

long frame_open(const unsigned char *frame, size_t n, void *buf, size_t cap) {
  if (n < FRAME_CHECK_BYTES) return -1;
  const size_t len = n - FRAME_CHECK_BYTES;
  uint32_t carried = 0;
  for (int i = 0; i < FRAME_CHECK_BYTES; ++i) carried |= (uint32_t)frame[len + (size_t)i] << (8 * i);
  if (carried != check_of(frame, len) || len > cap) return -1;
  memcpy(buf, frame, len);
  return (long)len;
}
