/* The NX emulation: every call of nx.h, above the wire (../wire/wire.h).
 * Argument checks and error reports, message ids, the info of the last
 * message, hrecv handlers and the global operations live here, once, for
 * both substrates. */
#include <nx.h>

#include "../wire/global.h"
#include "../wire/wire.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a message id stands for, beyond its wire request. */
enum { MSG_SEND = 1, MSG_RECV = 2 };
struct message {
  char kind;
  long *info; /* irecvx's info array, filled when the receive completes */
};
/* hrecv receives whose handler has not run yet. */
struct pending_handler {
  long mid;
  void (*handler)(long, long, long, long);
};

/* A node's state (one per process on MPI, one per simulated processor on
 * the engine: wire_node_state). */
struct nx_node {
  int ready;
  long procs, max_type; /* the job's, constant: asked of the wire once */
  struct message *messages;
  long message_capacity;
  /* The last message received or probed (infocount & co). */
  long last_type, last_count, last_node, last_ptype;
  struct pending_handler *handlers;
  int handler_count, handler_capacity, trap_masked, in_handler;
};
static void *nx_nodes;
/* The node, once found, where this process is one (wire_nodes_in_process). */
static struct nx_node *only_node;

static struct nx_node *node(void) {
  if (only_node) return only_node;
  wire_start();
  struct nx_node *n = wire_node_state(&nx_nodes, sizeof *n);
  if (!n->ready) {
    n->ready = 1;
    n->procs = wire_procs();
    n->max_type = wire_max_type();
    n->last_type = n->last_count = n->last_node = n->last_ptype = -1;
  }
  if (wire_nodes_in_process() == 1) only_node = n;
  return n;
}

static void start(void) { wire_start(); }

static long error(int code) {
  errno = code;
  return -1;
}

static const char *error_text(int code) {
  switch (code) {
    case EQMSGLONG: return "message longer than the receive buffer (count)";
    case EQTYPE: return "message type or type selector out of range";
    case EQMID: return "not a message id in use";
    case EQNODE: return "node number out of range";
    case EQCOUNT: return "negative count";
    case EQPTYPE: return "process type is not this application's";
    default: return strerror(code);
  }
}

void nx_perror(const char *s) { fprintf(stderr, "%s: %s\n", s, error_text(errno)); }

/* A plain call's error: NX printed it and ended the application. */
static void fatal(const char *call) {
  char text[256];
  snprintf(text, sizeof text, "%s: %s (errno %d)", call, error_text(errno), errno);
  wire_fail("NX", text);
}

/* The checks and helpers below take the calling node's state, found once per
 * call of nx.h (node() asks the wire, which on the engine depends on the
 * simulated processor running). */
static int type_ok(const struct nx_node *n, long type) {
  long t = type & NX_FORCE_TYPE ? type & ~NX_FORCE_TYPE : type;
  return type >= 0 && t <= NX_MAX_TYPE && type <= n->max_type;
}
static int typesel_ok(const struct nx_node *n, long typesel) {
  return typesel == NX_ANY || type_ok(n, typesel);
}
static int node_ok(const struct nx_node *n, long node) { return node >= 0 && node < n->procs; }
static int ptype_ok(long ptype) { return ptype == 0; }
static int ptypesel_ok(long ptypesel) { return ptypesel == NX_ANY || ptypesel == 0; }

static void note(struct nx_node *n, int mid, char kind, long *info) {
  if (mid >= n->message_capacity) {
    long grown = n->message_capacity ? 2 * n->message_capacity : 64;
    while (grown <= mid) grown *= 2;
    n->messages = realloc(n->messages, (size_t)grown * sizeof *n->messages);
    if (!n->messages) wire_fail("NX", "out of memory for message ids");
    memset(n->messages + n->message_capacity, 0,
           (size_t)(grown - n->message_capacity) * sizeof *n->messages);
    n->message_capacity = grown;
  }
  n->messages[mid].kind = kind;
  n->messages[mid].info = info;
}

static void remember(struct nx_node *n, const wire_status *st) {
  n->last_type = st->type;
  n->last_count = (long)st->length;
  n->last_node = st->source;
  n->last_ptype = 0;
}

/* A receive completed: its info, or EQMSGLONG when it did not fit. */
static inline __attribute__((always_inline)) long received(struct nx_node *n, long mid,
                                                          const wire_status *st) {
  struct message *m = &n->messages[mid];
  m->kind = 0;
  if (st->truncated) return error(EQMSGLONG);
  remember(n, st);
  if (m->info) {
    m->info[INFO_TYPE] = n->last_type;
    m->info[INFO_COUNT] = n->last_count;
    m->info[INFO_NODE] = n->last_node;
    m->info[INFO_PTYPE] = n->last_ptype;
  }
  return 1;
}

/* Run the handlers of hrecv receives that have completed. */
static void run_handlers(struct nx_node *n) {
  if (n->trap_masked || n->in_handler || n->handler_count == 0) return;
  n->in_handler = 1;
  for (int i = 0; i < n->handler_count;) {
    wire_status st;
    long mid = n->handlers[i].mid;
    if (!wire_test((int)mid, &st)) {
      ++i;
      continue;
    }
    void (*h)(long, long, long, long) = n->handlers[i].handler;
    n->handlers[i] = n->handlers[--n->handler_count];
    if (received(n, mid, &st) < 0) fatal("hrecv");
    h(n->last_type, n->last_count, n->last_node, n->last_ptype);
  }
  n->in_handler = 0;
}

/* The start of every call: hrecv handlers whose message has come run first. */
static struct nx_node *enter(void) {
  struct nx_node *n = node();
  if (n->handler_count) run_handlers(n);
  return n;
}

long mynode(void) { start(); return wire_self(); }
long numnodes(void) { start(); return wire_procs(); }
long myptype(void) { start(); return 0; }
double dclock(void) { start(); return wire_seconds(); }

/* A send's arguments: 0, or -1 with errno. Inlined into csend's small path, which
 * NXAM's round trip takes. */
static inline __attribute__((always_inline)) long send_checks(const struct nx_node *n, long type,
                                                              long count, long node, long ptype) {
  if (!type_ok(n, type)) return error(EQTYPE);
  if (count < 0) return error(EQCOUNT);
  if (!node_ok(n, node)) return error(EQNODE);
  if (!ptype_ok(ptype)) return error(EQPTYPE);
  return 0;
}

long _isend(long type, char *buf, long count, long node, long ptype) {
  struct nx_node *n = enter();
  if (send_checks(n, type, count, node, ptype) < 0) return -1;
  int mid = wire_isend(WIRE_USER, buf, (size_t)count, (int)node, type);
  note(n, mid, MSG_SEND, NULL);
  return mid;
}

long _irecvx(long typesel, char *buf, long count, long nodesel, long ptypesel, long info[]) {
  struct nx_node *n = enter();
  if (!typesel_ok(n, typesel)) return error(EQTYPE);
  if (count < 0) return error(EQCOUNT);
  if (nodesel != NX_ANY && !node_ok(n, nodesel)) return error(EQNODE);
  if (!ptypesel_ok(ptypesel)) return error(EQPTYPE);
  int mid = wire_irecv(WIRE_USER, buf, (size_t)count, (int)nodesel, typesel);
  note(n, mid, MSG_RECV, info);
  return mid;
}

long _irecv(long typesel, char *buf, long count) {
  return _irecvx(typesel, buf, count, NX_ANY, NX_ANY, NULL);
}

/* A message id in use: noted, and not yet done or cancelled (which clear its
 * kind when the wire gives its request back). */
static int mid_ok(const struct nx_node *n, long mid) {
  return mid >= 0 && mid < n->message_capacity && n->messages[mid].kind != 0;
}

long _msgdone(long mid) {
  struct nx_node *n = enter();
  if (!mid_ok(n, mid)) return error(EQMID);
  wire_status st;
  if (!wire_test((int)mid, &st)) return 0;
  if (n->messages[mid].kind == MSG_SEND) {
    n->messages[mid].kind = 0;
    return 1;
  }
  return received(n, mid, &st);
}

long _msgwait(long mid) {
  long done;
  while ((done = _msgdone(mid)) == 0) wire_idle("msgwait");
  return done < 0 ? -1 : 0;
}

long _msgcancel(long mid) {
  struct nx_node *n = node();
  if (!mid_ok(n, mid)) return error(EQMID);
  if (n->messages[mid].kind == MSG_RECV) {
    wire_cancel((int)mid);
  } else {
    while (!wire_test((int)mid, NULL)) wire_idle("msgcancel"); /* a send cannot be taken back */
  }
  n->messages[mid].kind = 0;
  return 0;
}

long _csend(long type, char *buf, long count, long node, long ptype) {
  if (count >= 0 && count <= WIRE_SEND_NOW_MAX) {
    /* Small: copied out at once, so no message id to wait on. */
    const struct nx_node *n = enter();
    if (send_checks(n, type, count, node, ptype) < 0) return -1;
    wire_send_now(WIRE_USER, buf, (size_t)count, (int)node, type);
    return 0;
  }
  long mid = _isend(type, buf, count, node, ptype);
  return mid < 0 ? -1 : _msgwait(mid);
}

long _crecvx(long typesel, char *buf, long count, long nodesel, long ptypesel, long info[]) {
  long mid = _irecvx(typesel, buf, count, nodesel, ptypesel, info);
  return mid < 0 ? -1 : _msgwait(mid);
}

long _crecv(long typesel, char *buf, long count) {
  return _crecvx(typesel, buf, count, NX_ANY, NX_ANY, NULL);
}

long iprobex(long typesel, long nodesel, long ptypesel, long info[]) {
  struct nx_node *n = enter();
  if (!typesel_ok(n, typesel)) { errno = EQTYPE; fatal("iprobex"); }
  if (nodesel != NX_ANY && !node_ok(n, nodesel)) { errno = EQNODE; fatal("iprobex"); }
  if (!ptypesel_ok(ptypesel)) { errno = EQPTYPE; fatal("iprobex"); }
  wire_status st;
  if (!wire_probe(WIRE_USER, (int)nodesel, typesel, &st)) return 0;
  remember(n, &st);
  if (info) {
    info[INFO_TYPE] = n->last_type;
    info[INFO_COUNT] = n->last_count;
    info[INFO_NODE] = n->last_node;
    info[INFO_PTYPE] = n->last_ptype;
  }
  return 1;
}

long _iprobe(long typesel) {
  if (!typesel_ok(node(), typesel)) return error(EQTYPE);
  return iprobex(typesel, NX_ANY, NX_ANY, NULL);
}

void cprobe(long typesel) {
  while (!iprobe(typesel)) wire_idle("cprobe");
}

long infocount(void) { return node()->last_count; }
long infonode(void) { return node()->last_node; }
long infotype(void) { return node()->last_type; }
long infoptype(void) { return node()->last_ptype; }

long hrecv(long typesel, char *buf, long count,
           void (*handler)(long type, long count, long node, long ptype)) {
  struct nx_node *n = node();
  long mid = _irecv(typesel, buf, count);
  if (mid < 0) fatal("hrecv");
  if (n->handler_count == n->handler_capacity) {
    n->handler_capacity = n->handler_capacity ? 2 * n->handler_capacity : 16;
    n->handlers = realloc(n->handlers, (size_t)n->handler_capacity * sizeof *n->handlers);
    if (!n->handlers) wire_fail("NX", "out of memory for hrecv handlers");
  }
  n->handlers[n->handler_count].mid = mid;
  n->handlers[n->handler_count].handler = handler;
  ++n->handler_count;
  return mid;
}

long masktrap(long state) {
  struct nx_node *n = node();
  long old = n->trap_masked;
  n->trap_masked = state != 0;
  if (!n->trap_masked) run_handlers(n);
  return old;
}

/* The plain calls: an error ends the application. */
void csend(long type, char *buf, long count, long node, long ptype) {
  if (_csend(type, buf, count, node, ptype) < 0) fatal("csend");
}
void crecv(long typesel, char *buf, long count) {
  if (_crecv(typesel, buf, count) < 0) fatal("crecv");
}
void crecvx(long typesel, char *buf, long count, long nodesel, long ptypesel, long info[]) {
  if (_crecvx(typesel, buf, count, nodesel, ptypesel, info) < 0) fatal("crecvx");
}
long isend(long type, char *buf, long count, long node, long ptype) {
  long mid = _isend(type, buf, count, node, ptype);
  if (mid < 0) fatal("isend");
  return mid;
}
long irecv(long typesel, char *buf, long count) {
  long mid = _irecv(typesel, buf, count);
  if (mid < 0) fatal("irecv");
  return mid;
}
long irecvx(long typesel, char *buf, long count, long nodesel, long ptypesel, long info[]) {
  long mid = _irecvx(typesel, buf, count, nodesel, ptypesel, info);
  if (mid < 0) fatal("irecvx");
  return mid;
}
long msgdone(long mid) {
  long done = _msgdone(mid);
  if (done < 0) fatal("msgdone");
  return done;
}
void msgwait(long mid) {
  if (_msgwait(mid) < 0) fatal("msgwait");
}
void msgcancel(long mid) {
  if (_msgcancel(mid) < 0) fatal("msgcancel");
}
long iprobe(long typesel) {
  long found = _iprobe(typesel);
  if (found < 0) fatal("iprobe");
  return found;
}

/* ---- global operations (../wire/global.c): blocking, serving nothing else
 * meanwhile, as NX's did. ---- */

#define NX_COMBINE(fn, T, expr)                                                       \
  static void combine_##fn(void *into, const void *from, size_t bytes, void *unused) { \
    (void)unused;                                                                     \
    T *a = into;                                                                      \
    const T *b = from;                                                                \
    for (size_t i = 0; i < bytes / sizeof(T); ++i) a[i] = (expr);                     \
  }                                                                                   \
  void fn(T x[], long n, T work[]) {                                                  \
    start();                                                                          \
    if (n < 0) {                                                                      \
      errno = EQCOUNT;                                                                \
      fatal(#fn);                                                                     \
    }                                                                                 \
    global_allreduce(x, (size_t)n * sizeof(T), work, combine_##fn, NULL, "NX", #fn);  \
  }

NX_COMBINE(gdsum, double, a[i] + b[i])
NX_COMBINE(gdprod, double, a[i] * b[i])
NX_COMBINE(gdhigh, double, a[i] > b[i] ? a[i] : b[i])
NX_COMBINE(gdlow, double, a[i] < b[i] ? a[i] : b[i])
NX_COMBINE(gisum, long, a[i] + b[i])
NX_COMBINE(giprod, long, a[i] * b[i])
NX_COMBINE(gihigh, long, a[i] > b[i] ? a[i] : b[i])
NX_COMBINE(gilow, long, a[i] < b[i] ? a[i] : b[i])

void gsync(void) {
  char none = 0;
  global_allreduce(&none, 0, &none, NULL, NULL, "NX", "gsync");
}
