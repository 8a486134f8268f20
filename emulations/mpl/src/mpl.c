/* The MPL emulation: every call of mpl.h, above the wire shared with the NX
 * emulation (../../nx/wire). Argument checks and mperrno, message ids with
 * the caller's source/type variables, rcvncall handlers and the global
 * operations live here, once, for both substrates. */
#include <mpl.h>

#include "../../nx/wire/global.h"
#include "../../nx/wire/wire.h"

#include <stdlib.h>
#include <string.h>

int mperrno;

enum { MSG_SEND = 1, MSG_RECV = 2 };
struct message {
  char kind;
  int *source, *type; /* the caller's variables, written at completion */
  size_t length;      /* a send's length */
};
struct pending_handler {
  int mid;
  void (*handler)(int *);
};

/* A node's state (one per process on MPI, one per simulated processor on
 * the engine: wire_node_state). mperrno, the vendor's variable, is one for
 * all: it is read right after the call that set it. */
struct mpl_node {
  int ready;
  int procs, max_type; /* the job's, constant: asked of the wire once */
  struct message *messages;
  int message_capacity;
  struct pending_handler *handlers;
  int handler_count, handler_capacity, handlers_locked, in_handler;
};
static void *mpl_nodes;

/* The node, once found, where this process is one (wire_nodes_in_process). */
static struct mpl_node *only_node;

static struct mpl_node *node(void) {
  if (only_node) return only_node;
  wire_start();
  struct mpl_node *n = wire_node_state(&mpl_nodes, sizeof(struct mpl_node));
  if (!n->ready) {
    n->ready = 1;
    n->procs = wire_procs();
    n->max_type = wire_max_type() < MPL_MAX_TYPE ? (int)wire_max_type() : MPL_MAX_TYPE;
  }
  if (wire_nodes_in_process() == 1) only_node = n;
  return n;
}

static int error(int code) {
  mperrno = code;
  return -1;
}

/* The checks and helpers below take the calling node's state, found once per
 * call of mpl.h (node() asks the wire, which on the engine depends on the
 * simulated processor running). */
static int type_ok(const struct mpl_node *n, int type) { return type >= 0 && type <= n->max_type; }
static int task_ok(const struct mpl_node *n, int task) { return task >= 0 && task < n->procs; }

static void note(struct mpl_node *n, int mid, char kind, int *source, int *type, size_t length) {
  if (mid >= n->message_capacity) {
    int grown = n->message_capacity ? 2 * n->message_capacity : 64;
    while (grown <= mid) grown *= 2;
    n->messages = realloc(n->messages, (size_t)grown * sizeof *n->messages);
    if (!n->messages) wire_fail("MPL", "out of memory for message ids");
    memset(n->messages + n->message_capacity, 0, (size_t)(grown - n->message_capacity) * sizeof *n->messages);
    n->message_capacity = grown;
  }
  struct message m = {kind, source, type, length};
  n->messages[mid] = m;
}

/* A message id in use: noted, and not yet done (status_of clears its kind
 * when the wire gives its request back). */
static int mid_ok(const struct mpl_node *n, int mid) {
  return mid >= 0 && mid < n->message_capacity && n->messages[mid].kind != 0;
}

/* -1 pending, bytes when done, -2 on error (mperrno). */
static int status_of(struct mpl_node *n, int mid) {
  wire_status st;
  if (!wire_test(mid, &st)) return -1;
  struct message *m = &n->messages[mid];
  if (m->kind == MSG_SEND) {
    m->kind = 0;
    return (int)m->length;
  }
  m->kind = 0;
  if (st.truncated) {
    mperrno = MPE_TRUNC;
    return -2;
  }
  if (m->source) *m->source = st.source;
  if (m->type) *m->type = (int)st.type;
  return (int)st.length;
}

static void run_handlers(struct mpl_node *n) {
  if (n->handlers_locked || n->in_handler || n->handler_count == 0) return;
  n->in_handler = 1;
  for (int i = 0; i < n->handler_count;) {
    int mid = n->handlers[i].mid;
    if (!wire_live(mid) || status_of(n, mid) == -1) {
      ++i;
      continue;
    }
    void (*h)(int *) = n->handlers[i].handler;
    n->handlers[i] = n->handlers[--n->handler_count];
    h(&mid);
  }
  n->in_handler = 0;
}

/* The start of every call: rcvncall handlers whose message has come run first. */
static struct mpl_node *enter(void) {
  struct mpl_node *n = node();
  if (n->handler_count) run_handlers(n);
  return n;
}

int mpc_environ(int *numtask, int *taskid) {
  wire_start();
  *numtask = wire_procs();
  *taskid = wire_self();
  return 0;
}

/* A send's arguments: 0, or -1 with mperrno. Inlined into mpc_bsend's small path,
 * which NXAM's round trip takes. */
static inline __attribute__((always_inline)) int send_checks(const struct mpl_node *n, int msglen,
                                                             int dest, int type) {
  if (!type_ok(n, type)) return error(MPE_TYPE);
  if (msglen < 0) return error(MPE_LEN);
  if (!task_ok(n, dest)) return error(MPE_TASK);
  return 0;
}

int mpc_send(char *buf, int msglen, int dest, int type, int *msgid) {
  struct mpl_node *n = enter();
  if (send_checks(n, msglen, dest, type) < 0) return -1;
  int mid = wire_isend(WIRE_USER, buf, (size_t)msglen, dest, type);
  note(n, mid, MSG_SEND, NULL, NULL, (size_t)msglen);
  *msgid = mid;
  return 0;
}

int mpc_recv(char *buf, int blklen, int *source, int *type, int *msgid) {
  struct mpl_node *n = enter();
  if (*type != DONTCARE && !type_ok(n, *type)) return error(MPE_TYPE);
  if (blklen < 0) return error(MPE_LEN);
  if (*source != DONTCARE && !task_ok(n, *source)) return error(MPE_TASK);
  int mid = wire_irecv(WIRE_USER, buf, (size_t)blklen, *source, *type);
  note(n, mid, MSG_RECV, source, type, 0);
  *msgid = mid;
  return 0;
}

int mpc_status(int msgid) {
  struct mpl_node *n = enter();
  if (!mid_ok(n, msgid)) {
    mperrno = MPE_MSGID;
    return -2;
  }
  return status_of(n, msgid);
}

int mpc_wait(int *msgid, int *nbytes) {
  struct mpl_node *me = enter();
  if (*msgid == ALLMSG) {
    for (int mid = 0; mid < me->message_capacity; ++mid) {
      if (!mid_ok(me, mid)) continue;
      int n;
      while ((n = status_of(me, mid)) == -1) wire_idle("mpc_wait");
      if (n < -1) return -1;
      *nbytes = n;
    }
    return 0;
  }
  if (!mid_ok(me, *msgid)) return error(MPE_MSGID);
  int n;
  while ((n = mpc_status(*msgid)) == -1) wire_idle("mpc_wait");
  if (n < -1) return -1;
  *nbytes = n;
  return 0;
}

int mpc_bsend(char *buf, int msglen, int dest, int type) {
  if (msglen >= 0 && msglen <= WIRE_SEND_NOW_MAX) {
    /* Small: copied out at once, so no message id to wait on. */
    const struct mpl_node *n = enter();
    if (send_checks(n, msglen, dest, type) < 0) return -1;
    wire_send_now(WIRE_USER, buf, (size_t)msglen, dest, type);
    return 0;
  }
  int mid, n;
  if (mpc_send(buf, msglen, dest, type, &mid) < 0) return -1;
  return mpc_wait(&mid, &n);
}

int mpc_brecv(char *buf, int blklen, int *source, int *type, int *nbytes) {
  int mid;
  if (mpc_recv(buf, blklen, source, type, &mid) < 0) return -1;
  return mpc_wait(&mid, nbytes);
}

int mpc_probe(int *source, int *type, int *nbytes) {
  const struct mpl_node *n = enter();
  if (*type != DONTCARE && !type_ok(n, *type)) return error(MPE_TYPE);
  if (*source != DONTCARE && !task_ok(n, *source)) return error(MPE_TASK);
  wire_status st;
  if (!wire_probe(WIRE_USER, *source, *type, &st)) {
    *nbytes = -1;
    return 0;
  }
  *source = st.source;
  *type = (int)st.type;
  *nbytes = (int)st.length;
  return 0;
}

int mpc_rcvncall(char *buf, int blklen, int *source, int *type, int *msgid,
                 void (*handler)(int *msgid)) {
  struct mpl_node *n = node();
  if (mpc_recv(buf, blklen, source, type, msgid) < 0) return -1;
  if (n->handler_count == n->handler_capacity) {
    n->handler_capacity = n->handler_capacity ? 2 * n->handler_capacity : 16;
    n->handlers = realloc(n->handlers, (size_t)n->handler_capacity * sizeof *n->handlers);
    if (!n->handlers) wire_fail("MPL", "out of memory for rcvncall handlers");
  }
  n->handlers[n->handler_count].mid = *msgid;
  n->handlers[n->handler_count].handler = handler;
  ++n->handler_count;
  return 0;
}

int mpc_lockrnc(int state, int *oldstate) {
  struct mpl_node *n = node();
  *oldstate = n->handlers_locked;
  n->handlers_locked = state != 0;
  if (!n->handlers_locked) run_handlers(n);
  return 0;
}

/* ---- global operations (../../nx/wire/global.c): blocking, serving nothing
 * else meanwhile, as MPL's did. ---- */

int mpc_sync(int gid) {
  enter();
  if (gid != ALLGRP) return error(MPE_GROUP);
  char none = 0;
  global_allreduce(&none, 0, &none, NULL, NULL, "MPL", "mpc_sync");
  return 0;
}

int mpc_bcast(char *buf, int msglen, int root, int gid) {
  const struct mpl_node *n = enter();
  if (gid != ALLGRP) return error(MPE_GROUP);
  if (msglen < 0) return error(MPE_LEN);
  if (!task_ok(n, root)) return error(MPE_TASK);
  global_broadcast(buf, (size_t)msglen, root, "MPL", "mpc_bcast");
  return 0;
}

static void combine_with(void *into, const void *from, size_t bytes, void *context) {
  void (*func)(void *, void *, void *, int *) = *(void (**)(void *, void *, void *, int *))context;
  int len = (int)bytes;
  func(into, (void *)from, into, &len);
}

int mpc_combine(void *sendbuf, void *recvbuf, int msglen, void (*func)(void *, void *, void *, int *),
                int gid) {
  enter();
  if (gid != ALLGRP) return error(MPE_GROUP);
  if (msglen < 0) return error(MPE_LEN);
  void *work = malloc((size_t)msglen + 1);
  if (!work) wire_fail("MPL", "out of memory for mpc_combine");
  memmove(recvbuf, sendbuf, (size_t)msglen);
  global_allreduce(recvbuf, (size_t)msglen, work, combine_with, &func, "MPL", "mpc_combine");
  free(work);
  return 0;
}

int mpc_index(char *sendbuf, char *recvbuf, int msglen, int gid) {
  enter();
  if (gid != ALLGRP) return error(MPE_GROUP);
  if (msglen < 0) return error(MPE_LEN);
  global_alltoall(sendbuf, recvbuf, (size_t)msglen, "MPL", "mpc_index");
  return 0;
}

#define MPL_REDUCE(fn, T, expr)                                  \
  void fn(void *in1, void *in2, void *out, int *len) {           \
    const T *a = in1, *b = in2;                                  \
    T *o = out;                                                  \
    for (int i = 0; i < *len / (int)sizeof(T); ++i) o[i] = (expr); \
  }
MPL_REDUCE(s_vadd, float, a[i] + b[i])
MPL_REDUCE(i_vadd, int, a[i] + b[i])
MPL_REDUCE(d_vadd, double, a[i] + b[i])
MPL_REDUCE(i_vmul, int, a[i] * b[i])
MPL_REDUCE(d_vmul, double, a[i] * b[i])
MPL_REDUCE(i_vmax, int, a[i] > b[i] ? a[i] : b[i])
MPL_REDUCE(d_vmax, double, a[i] > b[i] ? a[i] : b[i])
MPL_REDUCE(i_vmin, int, a[i] < b[i] ? a[i] : b[i])
MPL_REDUCE(d_vmin, double, a[i] < b[i] ? a[i] : b[i])
