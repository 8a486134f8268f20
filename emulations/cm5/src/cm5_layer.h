/* The CM-5 emulation's logic, shared by its three parts (cmaml.c: packets,
 * handlers, receive ports; cmam.c: the CMAM aliases; cmmd.c: identity and
 * the control network). Internal. */
#ifndef CM5_LAYER_H
#define CM5_LAYER_H

#include "cm5_wire.h"

#include <cmaml.h>

/* Arrived packets are pulled from the wire into a window of this many per
 * network and delivered from it in a seeded random order. */
enum { CM5_WINDOW = 16 };

enum { CM5_IN_NOTHING = 0, CM5_IN_REQUEST = 1, CM5_IN_REPLY = 2 };

struct cm5_rport {
  int allocated;
  char *addr;
  int counter;
  CMAML_rport_handler_t handler;
  void *arg2;
};

struct cm5_node {
  int context;          /* which kind of handler is running (CM5_IN_*) */
  int requester;        /* in a request handler: the node that sent it */
  int replies;          /* replies sent by the running request handler */
  uint64_t rng;         /* the reordering's state */
  cm5_packet window[CM5_NETWORKS][CM5_WINDOW];
  int held[CM5_NETWORKS];
  struct cm5_rport rports[CMAML_MAX_RPORTS];
  uint64_t control_epoch;
  /* CMAM's segments (cmam.c): the end procedure of the segment on each port. */
  struct cm5_segment {
    void (*end)(void *info, void *base);
    void *info;
  } segments[CMAML_MAX_RPORTS];
  /* CMMD's point-to-point (cmmd_p2p.c), made on first use. */
  struct cm5_p2p *p2p;
};

/* This node's state (attaching to the partition on first use). */
struct cm5_node *cm5_node(void);

/* The layer's error: to the hook if set, else the wire's failure path. */
void cm5_fail(const char *format, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* Deliver at most one arrived packet of each network in `networks` (a mask:
 * 1 << CM5_REQUEST, 1 << CM5_REPLY); returns how many ran. */
enum { CM5_BOTH = (1 << CM5_REQUEST) | (1 << CM5_REPLY), CM5_REPLIES = 1 << CM5_REPLY };
int cm5_drain_some(struct cm5_node *n, int networks);

void cm5_check_node(const char *who, int node);

/* Point-to-point's progress from a wait of the main line outside it (the control network):
 * match posted receives, copy the data of granted sends; returns how many it started (0 when
 * the node has never used point-to-point). cmmd_p2p.c. */
int cm5_p2p_progress(void);

#endif /* CM5_LAYER_H */
