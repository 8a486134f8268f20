/* CMMD's point-to-point message passing (cmmd.h), on CMAML as the real layering had it:
 * messages over message control blocks (MCBs) over receive ports. README.md, "Point-to-point",
 * says what the record leaves open and what was chosen [U]:
 *
 *   - a send announces itself to the receiver with one request packet {sender, tag, length,
 *     per-pair sequence | sender's MCB}; the receiver keeps the announcements of each sender in
 *     sequence order (the networks reorder) and matches them against its posted receives in
 *     post order, the earliest matching announcement first (so one sender's messages with one
 *     tag are received in the order sent, and ANY_NODE / ANY_TAG work);
 *   - a receive holds a receive port on its buffer from the moment it is posted (the 64 ports
 *     are the resource an asynchronous receive can run out of: CMMD_ERRVAL with
 *     CMMD_ERR_NO_RPORTS); on a match the receiver grants the sender the port and the byte
 *     count (the shorter of message and buffer), and the sender CMAML_scopys the data into it
 *     from its main line; the port's handler completes the receive, and the sender's send is
 *     done once the last packet has left (an empty message completes at the grant);
 *   - every call makes progress (matches, grants, copies) and every wait drains both networks,
 *     so handlers run while a node waits. */
#include "cm5_layer.h"

#include <cmmd.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { max_mcbs = 1024 };

struct mcb {
  int in_use, is_send, done, freed, handler_run;
  int node, tag;          /* destination, or the source and tag asked for (wildcards) */
  char *buffer;
  int length;             /* send: the message; receive: the buffer */
  int bytes;              /* moved */
  int source, message_tag;/* receive: the message's */
  CMMD_mcb_handler_t handler;
  void *harg;
  /* send */
  int granted, rport, grant_bytes, copied;
  /* receive */
  int port;               /* the receive port held, -1 once freed */
  int matched;
};

struct announcement {
  int source, tag, length, sender_mcb;
  long sequence;
  struct announcement *next;
};

struct cm5_p2p {
  struct mcb mcbs[max_mcbs];
  long *next_send;      /* per destination: sequence of the next send */
  long *next_expected;  /* per source: the announcement due next */
  struct announcement *early;              /* ahead of their turn, any source */
  struct announcement *queue, **queue_end; /* in turn, unmatched, in order */
  int *posted;          /* receives, in post order */
  int posted_count, posted_capacity;
  int last_bytes, last_sender, last_tag, error;
  int to_copy;       /* sends granted, data not yet copied */
  int completions;   /* operations done since run_handlers last looked */
};

static struct cm5_p2p *p2p(void) {
  struct cm5_node *n = cm5_node();
  if (n->p2p == NULL) {
    const int nodes = cm5_wire_nodes();
    struct cm5_p2p *s = calloc(1, sizeof *s);
    if (s == NULL) cm5_fail("CMMD: out of memory");
    s->next_send = calloc((size_t)nodes, sizeof(long));
    s->next_expected = calloc((size_t)nodes, sizeof(long));
    if (s->next_send == NULL || s->next_expected == NULL) cm5_fail("CMMD: out of memory");
    s->queue_end = &s->queue;
    n->p2p = s;
  }
  return n->p2p;
}

static void *checked_malloc(size_t n) {
  void *p = malloc(n);
  if (p == NULL) cm5_fail("CMMD: out of memory");
  return p;
}

/* ---- the receiver's side ------------------------------------------------------------------ */

static void enqueue(struct cm5_p2p *s, struct announcement *a) {
  a->next = NULL;
  *s->queue_end = a;
  s->queue_end = &a->next;
  s->next_expected[a->source]++;
}

/* An announcement from `source` (a request handler). */
static void announced(long source, long tag, long length, long word) {
  struct cm5_p2p *s = p2p();
  struct announcement *a = checked_malloc(sizeof *a);
  a->source = (int)source;
  a->tag = (int)tag;
  a->length = (int)length;
  a->sequence = word >> 24;
  a->sender_mcb = (int)(word & 0xffffff);
  if (a->sequence != s->next_expected[a->source]) {
    a->next = s->early;
    s->early = a;
    return;
  }
  enqueue(s, a);
  /* Those that waited for this one. */
  for (int moved = 1; moved;) {
    moved = 0;
    for (struct announcement **p = &s->early; *p != NULL; p = &(*p)->next) {
      struct announcement *e = *p;
      if (e->sequence == s->next_expected[e->source]) {
        *p = e->next;
        enqueue(s, e);
        moved = 1;
        break;
      }
    }
  }
}

/* The receive port of receive `id` is full: the message has landed. */
static void landed(int rport, void *arg2) {
  struct cm5_p2p *s = p2p();
  struct mcb *m = &s->mcbs[(intptr_t)arg2];
  CMAML_free_rport(rport);
  m->port = -1;
  m->done = 1;
  s->completions++;
}

/* At the sender: the receiver granted `bytes` into its port `rport` (or -1: an empty message,
 * already received). */
static void granted(long sender_mcb, long rport, long bytes, long unused) {
  (void)unused;
  struct cm5_p2p *s = p2p();
  struct mcb *m = &s->mcbs[sender_mcb];
  m->granted = 1;
  m->rport = (int)rport;
  m->grant_bytes = (int)bytes;
  if (rport < 0) {
    m->bytes = 0;
    m->done = 1;
    s->completions++;
  } else {
    s->to_copy++;
  }
}

static int matches(const struct mcb *m, const struct announcement *a) {
  return (m->node == CMMD_ANY_NODE || m->node == a->source) &&
         (m->tag == CMMD_ANY_TAG || m->tag == a->tag);
}

/* Match the posted receives, in post order, with the earliest announcement each takes; returns
 * how many it matched. */
static int match_receives(struct cm5_p2p *s) {
  int matched = 0;
  for (int i = 0; i < s->posted_count;) {
    const int id = s->posted[i];
    struct mcb *m = &s->mcbs[id];
    struct announcement **p = &s->queue;
    while (*p != NULL && !matches(m, *p)) p = &(*p)->next;
    if (*p == NULL) {
      ++i;
      continue;
    }
    struct announcement *a = *p;
    *p = a->next;
    if (s->queue_end == &a->next) s->queue_end = p;
    memmove(&s->posted[i], &s->posted[i + 1], sizeof(int) * (size_t)(s->posted_count - i - 1));
    s->posted_count--;
    const int bytes = a->length < m->length ? a->length : m->length;
    m->matched = 1;
    m->source = a->source;
    m->message_tag = a->tag;
    m->bytes = bytes;
    if (bytes == 0) {
      CMAML_free_rport(m->port);
      m->port = -1;
      m->done = 1;
      s->completions++;
      CMAML_request(a->source, granted, a->sender_mcb, -1, 0, 0);
    } else {
      CMAML_set_rport_byte_counter(m->port, bytes);
      CMAML_request(a->source, granted, a->sender_mcb, m->port, bytes, 0);
    }
    free(a);
    ++matched;
  }
  return matched;
}

/* ---- progress and waiting ------------------------------------------------------------------- */

/* The sends granted since: their data, from the main line (CMAML_scopy blocks on a full
 * network); returns how many it copied. */
static int copy_granted(struct cm5_p2p *s) {
  int copied = 0;
  for (int id = 0; id < max_mcbs && s->to_copy > 0; ++id) {
    struct mcb *m = &s->mcbs[id];
    if (!m->in_use || !m->is_send || !m->granted || m->copied || m->rport < 0) continue;
    m->copied = 1;
    s->to_copy--;
    CMAML_scopy(m->node, m->rport, 0, 0, m->buffer, m->grant_bytes, NULL, NULL);
    m->bytes = m->grant_bytes;
    m->done = 1;
    s->completions++;
    ++copied;
  }
  return copied;
}

int cm5_p2p_progress(void) {
  struct cm5_node *n = cm5_node();
  if (n->p2p == NULL || n->context != CM5_IN_NOTHING) return 0;
  return match_receives(n->p2p) + copy_granted(n->p2p);
}

static void release(struct cm5_p2p *s, int id) { memset(&s->mcbs[id], 0, sizeof s->mcbs[id]); }

/* Completed MCBs' handlers (once each), and the freed ones released. */
static void run_handlers(struct cm5_p2p *s) {
  if (s->completions == 0) return;
  s->completions = 0;
  for (int id = 0; id < max_mcbs; ++id) {
    struct mcb *m = &s->mcbs[id];
    if (!m->in_use || !m->done) continue;
    if (m->handler != NULL && !m->handler_run) {
      m->handler_run = 1;
      m->handler(id, m->harg);
    }
    if (s->mcbs[id].freed) release(s, id);
  }
}

static void progress(struct cm5_p2p *s) {
  struct cm5_node *n = cm5_node();
  if (n->context == CM5_IN_NOTHING) {
    cm5_drain_some(n, CM5_BOTH);
    match_receives(s);
    copy_granted(s);
    run_handlers(s);
  }
}

static void wait_done(struct cm5_p2p *s, int id, const char *who) {
  struct cm5_node *n = cm5_node();
  if (n->context != CM5_IN_NOTHING) cm5_fail("%s: called inside a handler", who);
  unsigned idle = 0;
  while (!s->mcbs[id].done) {
    match_receives(s);
    copy_granted(s);
    if (s->mcbs[id].done) break;
    if (cm5_drain_some(n, CM5_BOTH) != 0)
      idle = 0;
    else
      cm5_wire_pause(idle++);
  }
  run_handlers(s);
}

/* ---- starting operations -------------------------------------------------------------------- */

static int new_mcb(struct cm5_p2p *s) {
  for (int id = 0; id < max_mcbs; ++id)
    if (!s->mcbs[id].in_use) {
      memset(&s->mcbs[id], 0, sizeof s->mcbs[id]);
      s->mcbs[id].in_use = 1;
      s->mcbs[id].port = -1;
      s->mcbs[id].rport = -1;
      return id;
    }
  return -1;
}

static void check_length(const char *who, int len) {
  if (len < 0) cm5_fail("%s: length %d is negative", who, len);
}

static int start_send(const char *who, int node, int tag, const void *buf, int len,
                      CMMD_mcb_handler_t handler, void *harg) {
  struct cm5_p2p *s = p2p();
  cm5_check_node(who, node);
  check_length(who, len);
  if (tag < 0) cm5_fail("%s: tag %d is negative", who, tag);
  const int id = new_mcb(s);
  if (id < 0) {
    s->error = CMMD_ERR_NO_MCBS;
    return CMMD_ERRVAL;
  }
  struct mcb *m = &s->mcbs[id];
  m->is_send = 1;
  m->node = node;
  m->tag = tag;
  m->buffer = (char *)buf;
  m->length = len;
  m->handler = handler;
  m->harg = harg;
  const long sequence = s->next_send[node]++;
  CMAML_request(node, announced, cm5_wire_self(), tag, len, sequence << 24 | id);
  return id;
}

static int start_receive(const char *who, int node, int tag, void *buf, int len,
                         CMMD_mcb_handler_t handler, void *harg, int may_fail) {
  struct cm5_p2p *s = p2p();
  if (node != CMMD_ANY_NODE) cm5_check_node(who, node);
  check_length(who, len);
  if (tag < 0 && tag != CMMD_ANY_TAG) cm5_fail("%s: tag %d is negative", who, tag);
  int port = CMAML_allocate_rport();
  if (port < 0) {
    if (may_fail) {
      s->error = CMMD_ERR_NO_RPORTS;
      return CMMD_ERRVAL;
    }
    /* A blocking receive waits for a port to come free. */
    unsigned idle = 0;
    while ((port = CMAML_allocate_rport()) < 0) {
      progress(s);
      cm5_wire_pause(idle++);
    }
  }
  const int id = new_mcb(s);
  if (id < 0) {
    CMAML_free_rport(port);
    s->error = CMMD_ERR_NO_MCBS;
    return CMMD_ERRVAL;
  }
  struct mcb *m = &s->mcbs[id];
  m->node = node;
  m->tag = tag;
  m->buffer = buf;
  m->length = len;
  m->handler = handler;
  m->harg = harg;
  m->port = port;
  CMAML_set_rport_addr(port, buf);
  CMAML_set_rport_handler(port, landed);
  CMAML_set_rport_handler_arg2(port, (void *)(intptr_t)id);
  if (s->posted_count == s->posted_capacity) {
    s->posted_capacity = s->posted_capacity ? 2 * s->posted_capacity : 16;
    s->posted = realloc(s->posted, sizeof(int) * (size_t)s->posted_capacity);
    if (s->posted == NULL) cm5_fail("CMMD: out of memory");
  }
  s->posted[s->posted_count++] = id;
  match_receives(s);
  return id;
}

static struct mcb *checked_mcb(struct cm5_p2p *s, const char *who, CMMD_mcb id) {
  if (id < 0 || id >= max_mcbs || !s->mcbs[id].in_use)
    cm5_fail("%s: %d is not an MCB in use", who, id);
  return &s->mcbs[id];
}

static void note_last(struct cm5_p2p *s, const struct mcb *m) {
  s->last_bytes = m->bytes;
  s->last_sender = m->source;
  s->last_tag = m->message_tag;
}

/* ---- the calls ------------------------------------------------------------------------------ */

int CMMD_send_block(int node, int tag, const void *buf, int len) {
  struct cm5_p2p *s = p2p();
  const int id = start_send("CMMD_send_block", node, tag, buf, len, NULL, NULL);
  if (id < 0) cm5_fail("CMMD_send_block: all %d MCBs are in use", max_mcbs);
  wait_done(s, id, "CMMD_send_block");
  release(s, id);
  return 1;
}

int CMMD_send(int node, int tag, const void *buf, int len) { return CMMD_send_block(node, tag, buf, len); }

int CMMD_send_noblock(int node, int tag, const void *buf, int len) {
  return CMMD_send_block(node, tag, buf, len);
}

int CMMD_receive_block(int node, int tag, void *buf, int len) {
  struct cm5_p2p *s = p2p();
  const int id = start_receive("CMMD_receive_block", node, tag, buf, len, NULL, NULL, 0);
  if (id < 0) cm5_fail("CMMD_receive_block: all %d MCBs are in use", max_mcbs);
  wait_done(s, id, "CMMD_receive_block");
  note_last(s, &s->mcbs[id]);
  release(s, id);
  return 1;
}

int CMMD_receive(int node, int tag, void *buf, int len) {
  return CMMD_receive_block(node, tag, buf, len);
}

int CMMD_send_and_receive(int source, int source_tag, void *receive_buf, int receive_len,
                          int destination, int destination_tag, const void *send_buf,
                          int send_len) {
  struct cm5_p2p *s = p2p();
  const int r = start_receive("CMMD_send_and_receive", source, source_tag, receive_buf,
                              receive_len, NULL, NULL, 0);
  if (r < 0) cm5_fail("CMMD_send_and_receive: all %d MCBs are in use", max_mcbs);
  CMMD_send_block(destination, destination_tag, send_buf, send_len);
  wait_done(s, r, "CMMD_send_and_receive");
  note_last(s, &s->mcbs[r]);
  release(s, r);
  return 1;
}

CMMD_mcb CMMD_send_async(int node, int tag, const void *buf, int len, CMMD_mcb_handler_t handler,
                         void *harg) {
  struct cm5_p2p *s = p2p();
  const int id = start_send("CMMD_send_async", node, tag, buf, len, handler, harg);
  progress(s);
  return id;
}

CMMD_mcb CMMD_receive_async(int node, int tag, void *buf, int len, CMMD_mcb_handler_t handler,
                            void *harg) {
  return start_receive("CMMD_receive_async", node, tag, buf, len, handler, harg, 1);
}

int CMMD_msg_done(CMMD_mcb id) {
  struct cm5_p2p *s = p2p();
  checked_mcb(s, "CMMD_msg_done", id);
  progress(s);
  return s->mcbs[id].done;
}

void CMMD_msg_wait(CMMD_mcb id) {
  struct cm5_p2p *s = p2p();
  const struct mcb *m = checked_mcb(s, "CMMD_msg_wait", id);
  wait_done(s, id, "CMMD_msg_wait");
  if (!m->is_send) note_last(s, m);
}

void CMMD_free_mcb(CMMD_mcb id) {
  struct cm5_p2p *s = p2p();
  struct mcb *m = checked_mcb(s, "CMMD_free_mcb", id);
  if (m->done) {
    if (m->handler != NULL && !m->handler_run) {
      m->freed = 1; /* its handler is still due */
      return;
    }
    release(s, id);
    return;
  }
  if (!m->is_send && !m->matched) {
    /* A receive not yet matched: withdrawn, its port given back. */
    for (int i = 0; i < s->posted_count; ++i)
      if (s->posted[i] == id) {
        memmove(&s->posted[i], &s->posted[i + 1], sizeof(int) * (size_t)(s->posted_count - i - 1));
        s->posted_count--;
        break;
      }
    CMAML_free_rport(m->port);
    release(s, id);
    return;
  }
  m->freed = 1; /* in progress: freed when done */
}

int CMMD_all_msgs_done(void) {
  struct cm5_p2p *s = p2p();
  progress(s);
  for (int id = 0; id < max_mcbs; ++id)
    if (s->mcbs[id].in_use && !s->mcbs[id].done) return 0;
  return 1;
}

void CMMD_all_msgs_wait(void) {
  struct cm5_p2p *s = p2p();
  for (int id = 0; id < max_mcbs; ++id)
    if (s->mcbs[id].in_use && !s->mcbs[id].freed) wait_done(s, id, "CMMD_all_msgs_wait");
}

int CMMD_bytes_received(void) { return p2p()->last_bytes; }
int CMMD_msg_sender(void) { return p2p()->last_sender; }
int CMMD_msg_tag(void) { return p2p()->last_tag; }

int CMMD_mcb_bytes(CMMD_mcb id) { return checked_mcb(p2p(), "CMMD_mcb_bytes", id)->bytes; }
int CMMD_mcb_node(CMMD_mcb id) {
  const struct mcb *m = checked_mcb(p2p(), "CMMD_mcb_node", id);
  return m->is_send ? m->node : m->source;
}
int CMMD_mcb_tag(CMMD_mcb id) {
  const struct mcb *m = checked_mcb(p2p(), "CMMD_mcb_tag", id);
  return m->is_send ? m->tag : m->message_tag;
}

int CMMD_msg_pending(int node, int tag) {
  struct cm5_p2p *s = p2p();
  progress(s);
  for (const struct announcement *a = s->queue; a != NULL; a = a->next)
    if ((node == CMMD_ANY_NODE || node == a->source) && (tag == CMMD_ANY_TAG || tag == a->tag))
      return 1;
  return 0;
}

int CMMD_get_errno(void) { return p2p()->error; }
