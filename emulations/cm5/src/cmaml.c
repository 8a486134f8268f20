/* CMAML on the substrate seam (cm5_wire.h): requests and replies on two
 * networks, arrivals delivered in a seeded random order, blocked senders that
 * keep draining, the reply rules, receive ports and CMAML_scopy. */
#include "cm5_layer.h"

#include <cmmd.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static CMMD_error_hook_t error_hook;

void CMMD_set_error_hook(CMMD_error_hook_t hook) { error_hook = hook; }

void cm5_fail(const char *format, ...) {
  char message[512];
  va_list ap;
  va_start(ap, format);
  vsnprintf(message, sizeof message, format, ap);
  va_end(ap);
  if (error_hook != NULL) error_hook(message);
  cm5_wire_fail(message);
}

struct cm5_node *cm5_node(void) {
  struct cm5_node *n = cm5_wire_node(sizeof(struct cm5_node));
  if (n->rng == 0) n->rng = cm5_wire_seed() | 1;
  return n;
}

void cm5_check_node(const char *who, int node) {
  if (node < 0 || node >= cm5_wire_nodes())
    cm5_fail("%s: node %d is out of range (the partition has nodes 0 to %d)", who, node,
             cm5_wire_nodes() - 1);
}

/* ---- handlers travel as offsets from this function ------------------------ */

static void cm5_reference_handler(long a0, long a1, long a2, long a3) {
  (void)a0, (void)a1, (void)a2, (void)a3;
}

/* The program's code, where every handler must be (the node program is one
 * statically linked executable, as on the CM-5). */
extern const char __executable_start[];
extern const char etext[];

static int in_program_text(const void *address) {
  const char *a = (const char *)address;
  return a >= __executable_start && a < etext;
}

static int64_t handler_offset(const char *who, CMAML_handler_t h) {
  if (h == NULL || !in_program_text((const void *)h))
    cm5_fail("%s: handler %p is not a function of this program", who, (void *)h);
  return (int64_t)((const char *)h - (const char *)cm5_reference_handler);
}

static CMAML_handler_t handler_at(int64_t offset, int source) {
  const char *a = (const char *)cm5_reference_handler + offset;
  if (!in_program_text(a))
    cm5_fail("a packet from node %d names handler offset %lld, outside this program", source,
             (long long)offset);
  return (CMAML_handler_t)(const void *)a;
}

/* ---- arrivals -------------------------------------------------------------- */

static uint64_t next_random(struct cm5_node *n) {
  /* xorshift64* */
  n->rng ^= n->rng >> 12;
  n->rng ^= n->rng << 25;
  n->rng ^= n->rng >> 27;
  return n->rng * 0x2545F4914F6CDD1DULL;
}

static void refill(struct cm5_node *n, int network) {
  while (n->held[network] < CM5_WINDOW &&
         cm5_wire_receive(network, &n->window[network][n->held[network]]))
    ++n->held[network];
}

static void scopy_arrived(struct cm5_node *n, const cm5_packet *p) {
  const int rport = (int)(p->handler & 0xffff);
  const int bytes = (int)(p->handler >> 16);
  if (rport < 0 || rport >= CMAML_MAX_RPORTS || !n->rports[rport].allocated)
    cm5_fail("CMAML_scopy from node %d: receive port %d is not allocated here", p->source, rport);
  struct cm5_rport *r = &n->rports[rport];
  if (r->counter < bytes)
    cm5_fail("CMAML_scopy from node %d: receive port %d expects %d more bytes, got %d", p->source,
             rport, r->counter, bytes);
  memcpy(r->addr + p->w[0], &p->w[1], (size_t)bytes);
  r->counter -= bytes;
  if (r->counter == 0 && r->handler != NULL) {
    const int saved = n->context;
    n->context = CM5_IN_NOTHING;
    r->handler(rport, r->arg2);
    n->context = saved;
  }
}

static void deliver(struct cm5_node *n, int network, const cm5_packet *p) {
  if (p->kind == CM5_PACKET_SCOPY) {
    scopy_arrived(n, p);
    return;
  }
  CMAML_handler_t h = handler_at(p->handler, p->source);
  const int saved_context = n->context, saved_requester = n->requester,
            saved_replies = n->replies;
  n->context = network == CM5_REQUEST ? CM5_IN_REQUEST : CM5_IN_REPLY;
  n->requester = p->source;
  n->replies = 0;
  h(p->w[0], p->w[1], p->w[2], p->w[3]);
  n->context = saved_context;
  n->requester = saved_requester;
  n->replies = saved_replies;
}

/* Deliver one held packet of `network`, picked at random from the window. */
static int deliver_one(struct cm5_node *n, int network) {
  if (n->held[network] == 0) refill(n, network);
  const int held = n->held[network];
  if (held == 0) return 0;
  const int i = (int)(next_random(n) % (uint64_t)held);
  cm5_packet p = n->window[network][i];
  n->window[network][i] = n->window[network][held - 1];
  n->held[network] = held - 1;
  deliver(n, network, &p);
  return 1;
}

int cm5_drain_some(struct cm5_node *n, int networks) {
  int ran = 0;
  if (networks & CM5_REPLIES) ran += deliver_one(n, CM5_REPLY);
  if (networks & (1 << CM5_REQUEST)) ran += deliver_one(n, CM5_REQUEST);
  return ran;
}

int CMAML_poll(void) {
  struct cm5_node *n = cm5_node();
  /* What has arrived now, not what keeps arriving while it runs. */
  refill(n, CM5_REPLY);
  refill(n, CM5_REQUEST);
  int budget = n->held[CM5_REPLY] + n->held[CM5_REQUEST];
  int ran = 0;
  while (budget-- > 0) {
    const int one = deliver_one(n, CM5_REPLY) + deliver_one(n, CM5_REQUEST);
    if (one == 0) break;
    ran += one;
  }
  return ran;
}

void CMAML_poll_while_lt(volatile int *flag, int value) {
  unsigned idle = 0;
  while (*flag < value) {
    if (CMAML_poll() != 0)
      idle = 0;
    else
      cm5_wire_pause(idle++);
  }
}

/* ---- sending ------------------------------------------------------------------- */

/* A blocked request drains both networks; a blocked reply only replies
 * (a reply handler sends nothing, so that cannot nest further). */
static void send_packet(struct cm5_node *n, int node, int network, const cm5_packet *p) {
  unsigned idle = 0;
  while (!cm5_wire_try_send(node, network, p)) {
    if (cm5_drain_some(n, network == CM5_REQUEST ? CM5_BOTH : CM5_REPLIES) != 0)
      idle = 0;
    else
      cm5_wire_pause(idle++);
  }
}

static void send_handler(struct cm5_node *n, const char *who, int node, int network,
                         CMAML_handler_t h, long a0, long a1, long a2, long a3) {
  cm5_check_node(who, node);
  cm5_packet p;
  p.kind = CM5_PACKET_HANDLER;
  p.source = cm5_wire_self();
  p.handler = handler_offset(who, h);
  p.w[0] = a0;
  p.w[1] = a1;
  p.w[2] = a2;
  p.w[3] = a3;
  send_packet(n, node, network, &p);
}

void CMAML_request(int node, CMAML_handler_t h, long a0, long a1, long a2, long a3) {
  struct cm5_node *n = cm5_node();
  send_handler(n, "CMAML_request", node, CM5_REQUEST, h, a0, a1, a2, a3);
}

void CMAML_reply(int node, CMAML_handler_t h, long a0, long a1, long a2, long a3) {
  struct cm5_node *n = cm5_node();
  if (n->context == CM5_IN_REPLY)
    cm5_fail("CMAML_reply: called from a reply handler (replies only from a request handler)");
  if (n->context != CM5_IN_REQUEST)
    cm5_fail("CMAML_reply: called outside a request handler");
  if (n->replies != 0)
    cm5_fail("CMAML_reply: a second reply from one request handler");
  cm5_check_node("CMAML_reply", node);
  if (node != n->requester)
    cm5_fail("CMAML_reply: to node %d, but the request came from node %d", node, n->requester);
  n->replies = 1;
  send_handler(n, "CMAML_reply", node, CM5_REPLY, h, a0, a1, a2, a3);
}

/* ---- receive ports --------------------------------------------------------------- */

static struct cm5_rport *rport_of(const char *who, int rport) {
  struct cm5_node *n = cm5_node();
  if (rport < 0 || rport >= CMAML_MAX_RPORTS || !n->rports[rport].allocated)
    cm5_fail("%s: receive port %d is not allocated", who, rport);
  return &n->rports[rport];
}

int CMAML_allocate_rport(void) {
  struct cm5_node *n = cm5_node();
  for (int i = 0; i < CMAML_MAX_RPORTS; ++i) {
    if (!n->rports[i].allocated) {
      memset(&n->rports[i], 0, sizeof n->rports[i]);
      n->rports[i].allocated = 1;
      return i;
    }
  }
  return -1;
}

void CMAML_free_rport(int rport) { rport_of("CMAML_free_rport", rport)->allocated = 0; }
void CMAML_set_rport_addr(int rport, void *addr) {
  rport_of("CMAML_set_rport_addr", rport)->addr = (char *)addr;
}
void CMAML_set_rport_byte_counter(int rport, int nbytes) {
  if (nbytes < 0) cm5_fail("CMAML_set_rport_byte_counter: %d bytes", nbytes);
  rport_of("CMAML_set_rport_byte_counter", rport)->counter = nbytes;
}
int CMAML_rport_byte_counter(int rport) {
  return rport_of("CMAML_rport_byte_counter", rport)->counter;
}
void CMAML_set_rport_handler(int rport, CMAML_rport_handler_t handler) {
  rport_of("CMAML_set_rport_handler", rport)->handler = handler;
}
void CMAML_set_rport_handler_arg2(int rport, void *arg2) {
  rport_of("CMAML_set_rport_handler_arg2", rport)->arg2 = arg2;
}

int CMAML_scopy(int node, int rport, int align, int offset, void *addr, int nbytes,
                void (*sent_handler)(void *), void *sent_arg) {
  (void)align;
  struct cm5_node *n = cm5_node();
  cm5_check_node("CMAML_scopy", node);
  if (rport < 0 || rport >= CMAML_MAX_RPORTS)
    cm5_fail("CMAML_scopy: receive port %d is out of range (0 to %d)", rport, CMAML_MAX_RPORTS - 1);
  if (nbytes < 0 || offset < 0) cm5_fail("CMAML_scopy: %d bytes at offset %d", nbytes, offset);
  const char *from = (const char *)addr;
  cm5_packet p;
  p.kind = CM5_PACKET_SCOPY;
  p.source = cm5_wire_self();
  for (int done = 0; done < nbytes; done += CM5_SCOPY_BYTES) {
    const int bytes = nbytes - done < CM5_SCOPY_BYTES ? nbytes - done : CM5_SCOPY_BYTES;
    p.handler = (int64_t)rport | ((int64_t)bytes << 16);
    p.w[0] = offset + done;
    memcpy(&p.w[1], from + done, (size_t)bytes);
    send_packet(n, node, CM5_REQUEST, &p);
  }
  if (sent_handler != NULL) sent_handler(sent_arg);
  return 0;
}
