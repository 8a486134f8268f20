/* FDDI's frame check sequence under HPAM's packets, on either substrate: a
 * packet travels as a frame of the packet and a CRC-32C of it (frame.c: FDDI's
 * own polynomial was CRC-32's; Castagnoli's has the CPU's instruction, so the
 * emulation's check costs the host next to nothing, as the adapter's cost
 * the workstation nothing), and a receiver drops a frame whose check fails, as
 * the adapter did. So a packet corrupted on the way (bit flips spoofed from a
 * peer's port, or HPAM_CORRUPT's line noise) is lost and retransmitted,
 * never taken for another. */
#ifndef HPAM_FRAME_H
#define HPAM_FRAME_H

#include <stddef.h>
#include <stdint.h>

enum {
  FRAME_PACKET_MAX = 4096, /* an FDDI packet, as HPAM used it (HPAM_PACKET_BYTES) */
  FRAME_CHECK_BYTES = 4,
  HPAM_FRAME_BYTES = FRAME_PACKET_MAX + FRAME_CHECK_BYTES
};

/* Writes the frame of packet[0..len) to `frame` (room for len + 4 bytes);
 * returns its length. */
size_t frame_seal(unsigned char *frame, const void *packet, size_t len);

/* Flips bit `bit` (modulo the frame's bits) of a sealed frame: line noise. */
void frame_flip(unsigned char *frame, size_t frame_len, uint64_t bit);

/* The packet in frame[0..n): copies it to buf (room for cap bytes) and
 * returns its length, or -1 when the check fails (or the frame is shorter
 * than its check, or its packet longer than cap). */
long frame_open(const unsigned char *frame, size_t n, void *buf, size_t cap);

#endif
