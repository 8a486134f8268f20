/* The substrate seam of the CM-5 emulation: what the layer's logic (cmaml.c,
 * cmam.c, cmmd.c, written once) needs from whatever carries its packets.
 * Two implementations: wire_procs.c (real processes of this host: packet
 * rings and a control-network area in one shared-memory file) and
 * wire_sim.c (the sim backend's engine, in virtual time). Internal: ports and
 * programs use cmaml.h, cmam.h and cmmd.h only. */
#ifndef CM5_WIRE_H
#define CM5_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include <cmaml.h>

/* The two data networks. */
enum { CM5_REQUEST = 0, CM5_REPLY = 1, CM5_NETWORKS = 2 };

/* What a packet carries. */
enum {
  CM5_PACKET_HANDLER = 1, /* handler(w0..w3) */
  CM5_PACKET_SCOPY = 2    /* receive-port data: port, length, offset, 24 bytes */
};

/* A packet: the five words of the CM-5 (handler + four), plus the emulation's
 * header (kind, sender, a length for scopy). The handler travels as an
 * offset from a reference function in the emulation, never as an address. */
typedef struct cm5_packet {
  uint32_t kind;
  int32_t source;
  int64_t handler; /* CM5_PACKET_HANDLER: offset; CM5_PACKET_SCOPY: rport | bytes << 16 */
  long w[4];
} cm5_packet;

/* Bytes of data in one scopy packet (w1..w3). */
enum { CM5_SCOPY_BYTES = 3 * sizeof(long) };

/* The largest control-network contribution of one node in one operation. */
enum { CM5_CONTROL_BYTES = 128 };

struct cm5_node; /* the layer's per-node state (cmaml.c) */

/* Attach this node to its partition if not yet (on sim: enter the job) and
 * return the node's state: one per process on real processes, one per
 * simulated processor on sim (where statics are shared by all). The state's
 * storage (sizeof_node bytes, zeroed) belongs to the wire. */
struct cm5_node *cm5_wire_node(size_t sizeof_node);

int cm5_wire_self(void);
int cm5_wire_nodes(void);
/* Packets a network holds from one node to another (0: it never fills). */
long cm5_wire_capacity(void);

/* Try to send: 1 when the packet left, 0 when the network to `node` is full. */
int cm5_wire_try_send(int node, int network, const cm5_packet *p);

/* Take one arrived packet of `network`: 1, or 0 when none is there. */
int cm5_wire_receive(int network, cm5_packet *p);

/* Control network, split-phase: post this node's contribution to operation
 * number `epoch` (1, 2, ...; every node the same sequence), then test until
 * every node's contribution is there, when the test copies all of them (nodes
 * * len bytes, in node order) to `all` and returns 1. `cost_ns` is the
 * network's own time for the operation (charged on sim). */
void cm5_wire_control_post(uint64_t epoch, const void *mine, size_t len);
int cm5_wire_control_test(uint64_t epoch, void *all, size_t len, double cost_ns);

/* Nothing arrived: back off (host) or let the others run (sim). `idle` counts
 * the consecutive idle rounds of this wait. */
void cm5_wire_pause(unsigned idle);
/* The same inside a control operation whose test failed: on sim the node waits until a
 * packet arrives or the operation's last contribution wakes it. */
void cm5_wire_control_pause(unsigned idle);

double cm5_wire_now_us(void);

/* The control network's time for `operation` ("barrier", "broadcast",
 * "reduce", "scan"): `cm5_ns`, the CM-5's, unless on sim the machine model
 * gives its collective hardware another figure. */
double cm5_wire_collective_ns(const char *operation, double cm5_ns);

/* The layer's error, when no hook is set: report and end the partition. */
void cm5_wire_fail(const char *message) __attribute__((noreturn));

/* A seed for the reordering of this node's arrivals. */
uint64_t cm5_wire_seed(void);

#endif /* CM5_WIRE_H */
