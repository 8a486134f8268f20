/* The substrate seam of the HPAM emulation: an unreliable datagram network
 * between the job's nodes, and the node's clock. HPAM's logic (hpam.c,
 * reliable.c, faults.c) is written once above it; wire_udp.c implements it
 * with UDP datagrams between real processes on this host, wire_sim.c on the
 * sim backend's engine (simulated processors in virtual time). */
#ifndef HPAM_WIRE_H
#define HPAM_WIRE_H

#include <stddef.h>
#include <stdint.h>

/* Join the job: learn this node's number and the node count, open the
 * network. Returns 0, or -1 after printing why. */
int wire_open(int *self, int *procs);
void wire_close(void);

/* This node's number, without the state (the sim substrate's per-node slot). */
int wire_self(void);

/* Whether the job injects line noise (HPAM_CORRUPT, read by faults.c): the sim
 * substrate frames packets with their check only then (wire_sim.c); UDP always. */
void wire_seal_frames(int noisy);

/* Send one packet (at most HPAM_PACKET_BYTES) to node `to` (may be this
 * node), in a frame with its check sequence (frame.h; on the sim engine only
 * when the job injects noise: wire_seal_frames). May be lost; a frame
 * corrupted on the way is dropped by its receiver. */
void wire_send(int to, const void *packet, size_t len);

/* The same, with bit `bit` of the frame flipped after its check sequence
 * was computed: line noise (HPAM_CORRUPT), which the receiver drops. */
void wire_send_noisy(int to, const void *packet, size_t len, uint64_t bit);

/* The next arrived packet: copies it to buf, sets *from, returns its
 * length; -1 when none has arrived; WIRE_CORRUPT when a frame from a node
 * of the job failed its check (dropped: the caller counts it). */
enum { WIRE_CORRUPT = -2 };
long wire_receive(int *from, void *buf, size_t cap);

/* Monotonic nanoseconds (virtual on sim). */
uint64_t wire_now_ns(void);

/* Sleep until a packet may have arrived, at most max_ns. `bounded` = 0 when
 * only a packet can end the wait (a substrate may then sleep until one
 * arrives, however long); 1 when the caller must see the clock move (a
 * retransmission is due, a linger runs out). */
void wire_idle(uint64_t max_ns, int bounded);

/* Where this node's HPAM state lives: one pointer per node (all simulated
 * processors share the statics of one process). */
void **wire_state_slot(void);

/* End the job with `message` (already naming the node). */
void wire_fail(const char *message) __attribute__((noreturn));

#endif
