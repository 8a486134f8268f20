/* HPAM's packet format and a node's state, shared by the emulation's logic
 * (hpam.c: the calls; reliable.c: buffers, instance numbers, retransmission;
 * faults.c: the fault injection). Private to the emulation. */
#ifndef HPAM_STATE_H
#define HPAM_STATE_H

#include "frame.h"
#include "hpam.h"

#include <stddef.h>
#include <stdint.h>

enum {
  HPAM_PACKET_BYTES = FRAME_PACKET_MAX, /* an FDDI packet, as HPAM used it */
  HPAM_HEADER_BYTES = 64,
  HPAM_SLOTS = 32 /* request buffers per destination (and reply buffers per source) */
};

enum packet_type { PACKET_REQUEST = 1, PACKET_REPLY = 2 };
enum packet_form {
  FORM_SHORT = 1, /* hdr.count words in hdr.words */
  FORM_DF = 2,    /* hdr.i1, hdr.i2, the double in words[0] */
  FORM_STORE = 3, /* data after the header to words[0]; handler(src, rva, n, words[1]) */
  FORM_GET = 4,   /* request: words[0] rva, words[1] lva, words[2] arg */
  FORM_EMPTY = 5  /* the reply of a handler that sent none */
};

/* 64 bytes, then up to am_max_size() bytes of data. */
struct packet_header {
  uint8_t type, form, slot, count;
  uint8_t has_handler, reserved;
  int16_t src;
  uint32_t seq; /* the request's instance number (the reply repeats it) */
  int32_t nbytes;
  int32_t i1, i2;
  int64_t handler; /* offset from hpam_anchor (ASLR-proof) */
  int64_t words[4];
};
_Static_assert(sizeof(struct packet_header) == HPAM_HEADER_BYTES, "packet header is 64 bytes");

/* A request buffer: the packet until its reply arrives, then the reply until
 * it is delivered in order. */
struct request_slot {
  int busy, answered, retries;
  uint32_t seq;
  uint64_t sent_ns, deadline_ns, timeout_ns;
  size_t len, reply_len;
  unsigned char *packet, *reply;
  handler_mem_t endfunc; /* am_store_async */
  void *lva, *earg;
  int nbytes;
};

struct peer {
  struct request_slot slot[HPAM_SLOTS]; /* requests to this peer */
  uint32_t next_seq, oldest_seq;        /* in flight: oldest_seq .. next_seq - 1 */
  uint32_t expected;                    /* next request from this peer */
  uint32_t reply_seq[HPAM_SLOTS];       /* reply buffers: the request each answers */
  size_t reply_len[HPAM_SLOTS];
  unsigned char *reply[HPAM_SLOTS];
  /* Reorder buffers: requests from this peer that arrived ahead of a lost
   * one (instance expected+1 .. expected+HPAM_SLOTS-1), held until it comes. */
  int held[HPAM_SLOTS];
  size_t held_len[HPAM_SLOTS];
  unsigned char *held_packet[HPAM_SLOTS];
};

enum handler_context { IN_NOTHING = 0, IN_REQUEST = 1, IN_REPLY = 2 };

struct fault_settings {
  double drop, duplicate, reorder, corrupt;
  uint64_t rng;
  int held; /* a packet held back (reordered behind the next) */
  int held_to, held_polls;
  size_t held_len;
  unsigned char held_packet[HPAM_PACKET_BYTES];
};

struct node_state {
  int self, procs, blocking;
  struct peer *peers;
  int outstanding;
  uint64_t next_deadline_ns;
  unsigned poll_count;
  /* the handler running */
  int context, context_src, context_slot, replied;
  uint32_t context_seq;
  /* configuration */
  uint64_t timeout_ns, timeout_max_ns, linger_ns;
  int retry_limit, print_statistics;
  struct fault_settings faults;
  struct am_statistics stats;
  unsigned char receive_buffer[HPAM_PACKET_BYTES];
};

/* This node's state, or null before am_enable. */
struct node_state *hpam_node(void);

/* reliable.c */
int hpam_send_request(struct node_state *s, int dest, struct packet_header *h, const void *data,
                      size_t nbytes, handler_mem_t endfunc, void *lva, void *earg);
void hpam_send_reply(struct node_state *s, struct packet_header *h, const void *data,
                     size_t nbytes);
int hpam_progress(struct node_state *s, int check_clock);
void hpam_check_retransmissions(struct node_state *s);
void hpam_release_peers(struct node_state *s);

/* hpam.c: run an arrived request or reply's handler */
void hpam_run_request(struct node_state *s, int from, const unsigned char *packet, size_t len);
void hpam_run_reply(struct node_state *s, int from, const unsigned char *packet, size_t len);
void hpam_fatal(struct node_state *s, const char *format, ...)
    __attribute__((noreturn, format(printf, 2, 3)));
int hpam_error(int code);

/* faults.c */
int hpam_read_faults(struct fault_settings *f, int self);
void hpam_fault_send(struct node_state *s, int to, const void *packet, size_t len);
void hpam_fault_flush(struct node_state *s, int force);

#endif
