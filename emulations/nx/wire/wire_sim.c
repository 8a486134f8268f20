/* The message-passing wire on the sim backend's engine (splitc/sim_engine.h):
 * every node a simulated processor, every message charged by the machine
 * model SPLITC_SIM_MACHINE names (paragon for NX, sp1 for MPL). One ordered,
 * reliable engine channel carries both networks (a packet's header names
 * its network, type and length), so a poll is one check, as NXAM's was
 * (Luna 1994 §4.1.3). Matching is done here, as MPI does it on real
 * processes: a message goes to the oldest posted receive it matches, or
 * waits in its network's queue of unexpected messages, in arrival order; the
 * messages of one sender arrive in send order (charged o_s each, and G for
 * their bytes beyond a short message: charged_bytes). A send is complete when it
 * returns (the engine copies the packet); a message longer than one engine
 * packet travels as several, reassembled per sender. The global operations
 * (global.c) are messages on WIRE_GLOBAL, as on the Paragon and the SP-1,
 * which had no control network: they cost what their messages cost.
 *
 * Statics are shared by all simulated processors: a node's state lives in
 * an array indexed by splitc_sim_self() (wire_node_state). */
#include "wire.h"

#include <splitc/sim_engine.h>

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct header {
  int32_t net;
  int32_t unused;
  int64_t type;
  uint64_t length; /* the whole message's */
};
enum { chunk_bytes = SPLITC_SIM_MAX_PACKET - (int)sizeof(struct header) };

/* What a message's packets cost per byte (docs/sim-machines.md): the machine's short message
 * -- a handler word and four argument words, what its o_s was measured on -- is free of G,
 * and so is this wire's header; the rest of the message is charged per byte. */
enum { short_message_bytes = 40 };
static size_t charged_bytes(size_t at, size_t chunk) {
  if (at >= short_message_bytes) return chunk;
  return chunk > short_message_bytes - at ? chunk - (short_message_bytes - at) : 0;
}

struct request {
  char live, done, is_receive;
  int net;
  void *buf;
  size_t cap;
  int node_sel;
  long type_sel;
  wire_status st;
};

struct message { /* arrived, not yet received */
  int source;
  long type;
  size_t length;
  unsigned char *data;
  struct message *next;
};

struct partial { /* a message of several packets, per sender */
  struct header h;
  unsigned char *data;
  size_t have;
  int active;
};

struct node {
  int started, channel;
  struct request *requests;
  int *free_list, free_count, capacity;
  int *posted, posted_count, posted_capacity; /* receives in posting order */
  struct message *unexpected[WIRE_NETWORKS], *unexpected_tail[WIRE_NETWORKS];
  struct partial *partials; /* per sender */
};

static void *all_nodes;

void *wire_node_state(void **all, size_t bytes) {
  if (*all == NULL) {
    *all = calloc((size_t)splitc_sim_procs(), bytes);
    if (*all == NULL) wire_fail("wire", "out of memory for the nodes' state");
  }
  return (char *)*all + (size_t)splitc_sim_self() * bytes;
}

static struct node *me(void) { return wire_node_state(&all_nodes, sizeof(struct node)); }

static void *grow(void *p, size_t bytes) {
  void *q = realloc(p, bytes);
  if (q == NULL) wire_fail("wire", "out of memory");
  return q;
}

void wire_start(void) {
  splitc_sim_enter(); /* outside the job: runs it, each node calling main again */
  struct node *n = me();
  if (n->started) return;
  n->started = 1;
  n->channel = splitc_sim_channel("message passing", SPLITC_SIM_ORDERED);
  n->partials = calloc((size_t)splitc_sim_procs(), sizeof *n->partials);
  if (n->partials == NULL) wire_fail("wire", "out of memory");
}

int wire_nodes_in_process(void) { return splitc_sim_procs(); }
int wire_self(void) { return splitc_sim_self(); }
int wire_procs(void) { return splitc_sim_procs(); }
double wire_seconds(void) { return splitc_sim_now_ns() * 1e-9; }
long wire_max_type(void) { return INT_MAX; }

static int take_handle(struct node *n) {
  if (n->free_count == 0) {
    int grown = n->capacity ? 2 * n->capacity : 64;
    n->requests = grow(n->requests, (size_t)grown * sizeof *n->requests);
    n->free_list = grow(n->free_list, (size_t)grown * sizeof *n->free_list);
    memset(n->requests + n->capacity, 0, (size_t)(grown - n->capacity) * sizeof *n->requests);
    for (int i = grown - 1; i >= n->capacity; --i) n->free_list[n->free_count++] = i;
    n->capacity = grown;
  }
  int h = n->free_list[--n->free_count];
  memset(&n->requests[h], 0, sizeof n->requests[h]);
  n->requests[h].live = 1;
  return h;
}

static void give_handle(struct node *n, int h) {
  n->requests[h].live = 0;
  n->free_list[n->free_count++] = h;
}

int wire_live(int req) {
  struct node *n = me();
  return req >= 0 && req < n->capacity && n->requests[req].live;
}

static int matches(const struct request *r, int net, int source, long type) {
  return r->net == net && (r->node_sel < 0 || r->node_sel == source) &&
         (r->type_sel < 0 || r->type_sel == type);
}

/* Deliver a whole message into receive r. */
static void fill(struct request *r, int source, long type, const unsigned char *data, size_t length) {
  r->st.source = source;
  r->st.type = type;
  r->st.length = length;
  r->st.truncated = length > r->cap;
  if (length > 0) memcpy(r->buf, data, length > r->cap ? r->cap : length);
  r->done = 1;
}

/* A whole message arrived: to the oldest posted receive it matches, or queued. */
static void arrived(struct node *n, int net, int source, long type, const unsigned char *data,
                    size_t length, unsigned char *owned) {
  for (int i = 0; i < n->posted_count; ++i) {
    struct request *r = &n->requests[n->posted[i]];
    if (!matches(r, net, source, type)) continue;
    fill(r, source, type, data, length);
    memmove(n->posted + i, n->posted + i + 1, (size_t)(n->posted_count - i - 1) * sizeof *n->posted);
    --n->posted_count;
    free(owned);
    return;
  }
  struct message *m = malloc(sizeof *m);
  if (m == NULL) wire_fail("wire", "out of memory for an unexpected message");
  if (owned == NULL && length > 0) {
    owned = malloc(length);
    if (owned == NULL) wire_fail("wire", "out of memory for an unexpected message");
    memcpy(owned, data, length);
  }
  *m = (struct message){source, type, length, owned, NULL};
  if (n->unexpected_tail[net]) n->unexpected_tail[net]->next = m;
  else n->unexpected[net] = m;
  n->unexpected_tail[net] = m;
}

/* Take the next message that has arrived by this node's clock (all the
 * packets of a long one): one per call, so that a node pays a message's
 * receive overhead when it looks for a message, as the layer's user consumes
 * them. Taking every arrived packet at once made a node that was sent a
 * stream of requests pay all their receives before it answered the first,
 * and a stream of gets cost 2·o_r per operation where the model's o_r > o_s
 * (docs/ports.md, "Paragon"). Every caller polls again until what it waits
 * for has come, and the engine's wait returns at once while a packet is
 * waiting. The engine does not switch processors between handing a packet
 * over and the next call, so one receive buffer serves every node. */
static void progress(struct node *n) {
  static unsigned char packet[SPLITC_SIM_MAX_PACKET];
  int source = -1;
  long got;
  while ((got = splitc_sim_receive(n->channel, &source, packet, sizeof packet)) >= 0) {
    struct header h;
    if ((size_t)got < sizeof h) wire_fail("wire", "a packet shorter than its header");
    memcpy(&h, packet, sizeof h);
    if (h.net < 0 || h.net >= WIRE_NETWORKS) wire_fail("wire", "a packet of no network");
    const unsigned char *body = packet + sizeof h;
    const size_t body_length = (size_t)got - sizeof h;
    struct partial *p = &n->partials[source];
    if (!p->active && body_length == h.length) {
      arrived(n, h.net, source, (long)h.type, body, body_length, NULL);
      return;
    }
    if (!p->active) {
      p->h = h;
      p->data = malloc(h.length);
      if (p->data == NULL) wire_fail("wire", "out of memory for a long message");
      p->have = 0;
      p->active = 1;
    }
    if (p->have + body_length > p->h.length) wire_fail("wire", "a message longer than announced");
    memcpy(p->data + p->have, body, body_length);
    p->have += body_length;
    if (p->have == p->h.length) {
      p->active = 0;
      arrived(n, p->h.net, source, (long)p->h.type, p->data, p->have, p->data);
      p->data = NULL;
      return;
    }
  }
}

int wire_isend(int net, const void *buf, size_t len, int node, long type) {
  struct node *n = me();
  static unsigned char packet[SPLITC_SIM_MAX_PACKET];
  const struct header h = {net, 0, type, len};
  size_t at = 0;
  do {
    const size_t chunk = len - at < (size_t)chunk_bytes ? len - at : (size_t)chunk_bytes;
    memcpy(packet, &h, sizeof h);
    if (chunk > 0) memcpy(packet + sizeof h, (const char *)buf + at, chunk);
    splitc_sim_send_charged(n->channel, node, packet, sizeof h + chunk, charged_bytes(at, chunk));
    at += chunk;
  } while (at < len);
  int req = take_handle(n);
  n->requests[req].done = 1;
  n->requests[req].net = net;
  n->requests[req].st = (wire_status){node, type, len, 0};
  return req;
}

void wire_send_now(int net, const void *buf, size_t len, int node, long type) {
  wire_test(wire_isend(net, buf, len, node, type), NULL); /* done when sent */
}

int wire_irecv(int net, void *buf, size_t cap, int node_sel, long type_sel) {
  struct node *n = me();
  progress(n);
  int req = take_handle(n);
  struct request *r = &n->requests[req];
  r->is_receive = 1;
  r->net = net;
  r->buf = buf;
  r->cap = cap;
  r->node_sel = node_sel;
  r->type_sel = type_sel;
  for (struct message **at = &n->unexpected[net], *prev = NULL; *at; prev = *at, at = &(*at)->next) {
    struct message *m = *at;
    if (!matches(r, net, m->source, m->type)) continue;
    fill(r, m->source, m->type, m->data, m->length);
    *at = m->next;
    if (n->unexpected_tail[net] == m) n->unexpected_tail[net] = prev;
    free(m->data);
    free(m);
    return req;
  }
  if (n->posted_count == n->posted_capacity) {
    n->posted_capacity = n->posted_capacity ? 2 * n->posted_capacity : 64;
    n->posted = grow(n->posted, (size_t)n->posted_capacity * sizeof *n->posted);
  }
  n->posted[n->posted_count++] = req;
  return req;
}

int wire_test(int req, wire_status *st) {
  struct node *n = me();
  if (!n->requests[req].done) progress(n);
  struct request *r = &n->requests[req];
  if (!r->done) return 0;
  if (st) *st = r->st;
  give_handle(n, req);
  return 1;
}

int wire_cancel(int req) {
  struct node *n = me();
  if (n->requests[req].done) {
    give_handle(n, req);
    return 0;
  }
  for (int i = 0; i < n->posted_count; ++i) {
    if (n->posted[i] != req) continue;
    memmove(n->posted + i, n->posted + i + 1, (size_t)(n->posted_count - i - 1) * sizeof *n->posted);
    --n->posted_count;
    break;
  }
  give_handle(n, req);
  return 1;
}

int wire_probe(int net, int node_sel, long type_sel, wire_status *st) {
  struct node *n = me();
  progress(n);
  const struct request selector = {.net = net, .node_sel = node_sel, .type_sel = type_sel};
  for (const struct message *m = n->unexpected[net]; m; m = m->next) {
    if (!matches(&selector, net, m->source, m->type)) continue;
    if (st) *st = (wire_status){m->source, m->type, m->length, 0};
    return 1;
  }
  return 0;
}

void wire_idle(const char *what) { splitc_sim_wait(what); }

void wire_fail(const char *layer, const char *message) {
  if (!splitc_sim_in_job()) {
    fprintf(stderr, "%s: %s\n", layer, message);
    exit(70);
  }
  splitc_sim_fail(layer, message);
}
