/* HPAM's calls (hpam.h): checking their arguments, building packets, running
 * handlers, enabling and disabling the layer. The reliability is in
 * reliable.c, the network under it behind wire.h. */
#include "hpam_state.h"
#include "wire.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int am_errno = AM_OK;
static void (*fatal_hook)(const char *message) = NULL;

int hpam_error(int code) {
  am_errno = code;
  return -1;
}

const char *am_error_string(int code) {
  switch (code) {
    case AM_OK: return "no error";
    case AM_EBADNODE: return "no such node (or a reply not to the requester)";
    case AM_EBADHANDLER: return "no handler given";
    case AM_ETOOLONG: return "the length is negative or more than am_max_size()";
    case AM_ENOTREQUEST: return "a reply outside a request handler";
    case AM_EREPLIED: return "a second reply from one request handler";
    case AM_EINHANDLER: return "a request, a get or a poll from inside a handler, or a reply from a reply handler";
    case AM_EBUSY: return "every request buffer to the node is in flight";
    case AM_ENOTENABLED: return "HPAM is not enabled (am_enable)";
    case AM_ESYSTEM: return "the network cannot be opened";
    default: return "unknown error";
  }
}

struct node_state *hpam_node(void) { return (struct node_state *)*wire_state_slot(); }

void am_set_fatal(void (*fatal)(const char *message)) { fatal_hook = fatal; }

void hpam_fatal(struct node_state *s, const char *format, ...) {
  (void)s;
  char message[512];
  va_list ap;
  va_start(ap, format);
  vsnprintf(message, sizeof message, format, ap);
  va_end(ap);
  if (fatal_hook != NULL) fatal_hook(message);
  wire_fail(message);
}

/* Handlers travel as offsets from this function, which is in the same
 * executable as theirs: the same on every node even with address-space
 * randomisation on. */
static void hpam_anchor(void) {}

static int64_t handler_offset(void (*f)(void)) {
  return (int64_t)((intptr_t)f - (intptr_t)&hpam_anchor);
}
static void (*handler_at(int64_t offset))(void) {
  return (void (*)(void))((intptr_t)&hpam_anchor + (intptr_t)offset);
}

/* ---- enabling ------------------------------------------------------------------ */

static long read_number(const char *name, long fallback, long least, int *bad) {
  const char *v = getenv(name);
  if (v == NULL || *v == '\0') return fallback;
  char *end = NULL;
  const long n = strtol(v, &end, 10);
  if (*end != '\0' || n < least) {
    fprintf(stderr, "hpam: %s='%s' is not a whole number >= %ld\n", name, v, least);
    *bad = 1;
  }
  return n;
}

int am_enable(void) {
  if (hpam_node() != NULL) return 0;
  int self = 0, procs = 1;
  if (wire_open(&self, &procs) != 0) return hpam_error(AM_ESYSTEM);
  struct node_state *s = calloc(1, sizeof *s);
  struct peer *peers = calloc((size_t)procs, sizeof *peers);
  if (s == NULL || peers == NULL) {
    fprintf(stderr, "hpam: out of memory\n");
    return hpam_error(AM_ESYSTEM);
  }
  s->self = self;
  s->procs = procs;
  s->peers = peers;
  s->blocking = 1;
  s->next_deadline_ns = UINT64_MAX;
  int bad = 0;
  s->timeout_ns = (uint64_t)read_number("HPAM_TIMEOUT_US", 2000, 1, &bad) * 1000u;
  s->timeout_max_ns = (uint64_t)read_number("HPAM_TIMEOUT_MAX_US", 500000, 1, &bad) * 1000u;
  if (s->timeout_max_ns < s->timeout_ns) s->timeout_max_ns = s->timeout_ns;
  s->retry_limit = (int)read_number("HPAM_RETRIES", 24, 1, &bad);
  s->linger_ns = (uint64_t)read_number("HPAM_LINGER_MS", 100, 0, &bad) * 1000000u;
  s->print_statistics = (int)read_number("HPAM_STATS", 0, 0, &bad);
  if (hpam_read_faults(&s->faults, self) != 0) bad = 1;
  wire_seal_frames(s->faults.corrupt > 0);
  for (int q = 0; q < procs; ++q)
    for (int k = 0; k < HPAM_SLOTS; ++k) peers[q].reply_seq[k] = UINT32_MAX;
  if (bad) {
    free(peers);
    free(s);
    wire_close();
    return hpam_error(AM_ESYSTEM);
  }
  *wire_state_slot() = s;
  return 0;
}

int am_disable(void) {
  struct node_state *s = hpam_node();
  if (s == NULL) return hpam_error(AM_ENOTENABLED);
  if (s->context != IN_NOTHING) return hpam_error(AM_EINHANDLER);
  while (s->outstanding > 0)
    if (hpam_progress(s, 1) == 0) am_idle(1000);
  /* Our last replies may be lost: keep answering retransmissions until the
   * network has been quiet for the linger time. */
  uint64_t quiet_since = wire_now_ns();
  unsigned long seen = s->stats.received;
  while (wire_now_ns() - quiet_since < s->linger_ns) {
    hpam_progress(s, 1);
    if (s->stats.received != seen) {
      seen = s->stats.received;
      quiet_since = wire_now_ns();
    } else {
      wire_idle(s->linger_ns / 4, 1);
    }
  }
  hpam_fault_flush(s, 1);
  if (s->print_statistics) {
    const struct am_statistics *t = &s->stats;
    fprintf(stderr,
            "hpam: node %d: sent=%lu received=%lu retransmits_timeout=%lu injected_drops=%lu "
            "injected_duplicates=%lu injected_reorders=%lu duplicates_answered=%lu "
            "out_of_order=%lu injected_corruptions=%lu corrupt_dropped=%lu\n",
            s->self, t->sent, t->received, t->retransmits_timeout, t->injected_drops,
            t->injected_duplicates, t->injected_reorders, t->duplicates_answered, t->out_of_order,
            t->injected_corruptions, t->corrupt_dropped);
  }
  hpam_release_peers(s);
  *wire_state_slot() = NULL;
  free(s);
  wire_close();
  return 0;
}

vnn_t am_my_proc(void) {
  struct node_state *s = hpam_node();
  return s != NULL ? s->self : wire_self();
}
int am_procs(void) {
  struct node_state *s = hpam_node();
  return s != NULL ? s->procs : hpam_error(AM_ENOTENABLED);
}
int am_max_size(void) { return HPAM_PACKET_BYTES - HPAM_HEADER_BYTES; }

void am_set_blocking(int blocking) {
  struct node_state *s = hpam_node();
  if (s != NULL) s->blocking = blocking != 0;
}
int am_outstanding(void) {
  struct node_state *s = hpam_node();
  return s != NULL ? s->outstanding : 0;
}

int am_handler_context(vnn_t *requester) {
  struct node_state *s = hpam_node();
  if (s == NULL || s->context == IN_NOTHING) return AM_IN_NO_HANDLER;
  if (s->context == IN_REPLY) return AM_IN_REPLY_HANDLER;
  if (requester != NULL) *requester = s->context_src;
  return s->replied ? AM_IN_REPLIED_HANDLER : AM_IN_REQUEST_HANDLER;
}

void am_get_statistics(struct am_statistics *out) {
  struct node_state *s = hpam_node();
  if (s != NULL) *out = s->stats;
  else memset(out, 0, sizeof *out);
}

/* ---- sending --------------------------------------------------------------------- */

/* The checks every request makes: enabled, not from a handler, node in range. */
static struct node_state *request_checks(vnn_t dest, int *failed) {
  struct node_state *s = hpam_node();
  *failed = 1;
  if (s == NULL) return hpam_error(AM_ENOTENABLED), NULL;
  if (s->context != IN_NOTHING) return hpam_error(AM_EINHANDLER), NULL;
  if (dest < 0 || dest >= s->procs) return hpam_error(AM_EBADNODE), NULL;
  *failed = 0;
  return s;
}

/* The checks every reply makes: from a request handler, once, to the requester. */
static struct node_state *reply_checks(vnn_t dest, int *failed) {
  struct node_state *s = hpam_node();
  *failed = 1;
  if (s == NULL) return hpam_error(AM_ENOTENABLED), NULL;
  if (s->context == IN_REPLY) return hpam_error(AM_EINHANDLER), NULL;
  if (s->context != IN_REQUEST) return hpam_error(AM_ENOTREQUEST), NULL;
  if (s->replied) return hpam_error(AM_EREPLIED), NULL;
  if (dest != s->context_src) return hpam_error(AM_EBADNODE), NULL;
  *failed = 0;
  return s;
}

static int send_short(vnn_t dest, int reply, void (*h)(void), int count, long a1, long a2,
                      long a3, long a4) {
  int failed = 0;
  struct node_state *s = reply ? reply_checks(dest, &failed) : request_checks(dest, &failed);
  if (failed) return -1;
  if (h == NULL) return hpam_error(AM_EBADHANDLER);
  struct packet_header p;
  memset(&p, 0, sizeof p);
  p.form = FORM_SHORT;
  p.count = (uint8_t)count;
  p.has_handler = 1;
  p.handler = handler_offset(h);
  p.words[0] = a1;
  p.words[1] = a2;
  p.words[2] = a3;
  p.words[3] = a4;
  if (reply) {
    hpam_send_reply(s, &p, NULL, 0);
    return 0;
  }
  return hpam_send_request(s, dest, &p, NULL, 0, NULL, NULL, NULL);
}

#define AS_HANDLER(h) ((void (*)(void))(h))
int am_request_0(vnn_t d, handler_0_t h) { return send_short(d, 0, AS_HANDLER(h), 0, 0, 0, 0, 0); }
int am_request_1(vnn_t d, handler_1_t h, long a1) {
  return send_short(d, 0, AS_HANDLER(h), 1, a1, 0, 0, 0);
}
int am_request_2(vnn_t d, handler_2_t h, long a1, long a2) {
  return send_short(d, 0, AS_HANDLER(h), 2, a1, a2, 0, 0);
}
int am_request_3(vnn_t d, handler_3_t h, long a1, long a2, long a3) {
  return send_short(d, 0, AS_HANDLER(h), 3, a1, a2, a3, 0);
}
int am_request_4(vnn_t d, handler_4_t h, long a1, long a2, long a3, long a4) {
  return send_short(d, 0, AS_HANDLER(h), 4, a1, a2, a3, a4);
}
int am_reply_0(vnn_t d, handler_0_t h) { return send_short(d, 1, AS_HANDLER(h), 0, 0, 0, 0, 0); }
int am_reply_1(vnn_t d, handler_1_t h, long a1) {
  return send_short(d, 1, AS_HANDLER(h), 1, a1, 0, 0, 0);
}
int am_reply_2(vnn_t d, handler_2_t h, long a1, long a2) {
  return send_short(d, 1, AS_HANDLER(h), 2, a1, a2, 0, 0);
}
int am_reply_3(vnn_t d, handler_3_t h, long a1, long a2, long a3) {
  return send_short(d, 1, AS_HANDLER(h), 3, a1, a2, a3, 0);
}
int am_reply_4(vnn_t d, handler_4_t h, long a1, long a2, long a3, long a4) {
  return send_short(d, 1, AS_HANDLER(h), 4, a1, a2, a3, a4);
}

static int send_df(vnn_t dest, int reply, handler_df_t h, int a1, int a2, double d) {
  int failed = 0;
  struct node_state *s = reply ? reply_checks(dest, &failed) : request_checks(dest, &failed);
  if (failed) return -1;
  if (h == NULL) return hpam_error(AM_EBADHANDLER);
  struct packet_header p;
  memset(&p, 0, sizeof p);
  p.form = FORM_DF;
  p.has_handler = 1;
  p.handler = handler_offset(AS_HANDLER(h));
  p.i1 = a1;
  p.i2 = a2;
  memcpy(&p.words[0], &d, sizeof d);
  if (reply) {
    hpam_send_reply(s, &p, NULL, 0);
    return 0;
  }
  return hpam_send_request(s, dest, &p, NULL, 0, NULL, NULL, NULL);
}
int am_request_df(vnn_t d, handler_df_t h, int a1, int a2, double x) {
  return send_df(d, 0, h, a1, a2, x);
}
int am_reply_df(vnn_t d, handler_df_t h, int a1, int a2, double x) {
  return send_df(d, 1, h, a1, a2, x);
}

int am_store_async(vnn_t dest, void *lva, void *rva, int nbytes, handler_mem_t h, void *arg,
                   handler_mem_t endfunc, void *earg) {
  struct node_state *s = hpam_node();
  if (s == NULL) return hpam_error(AM_ENOTENABLED);
  const int as_reply = s->context == IN_REQUEST && dest == s->context_src;
  int failed = 0;
  if (as_reply) reply_checks(dest, &failed);
  else request_checks(dest, &failed);
  if (failed) return -1;
  if (nbytes < 0 || nbytes > am_max_size()) return hpam_error(AM_ETOOLONG);
  struct packet_header p;
  memset(&p, 0, sizeof p);
  p.form = FORM_STORE;
  p.has_handler = h != NULL;
  p.handler = h != NULL ? handler_offset(AS_HANDLER(h)) : 0;
  p.words[0] = (int64_t)(intptr_t)rva;
  p.words[1] = (int64_t)(intptr_t)arg;
  if (as_reply) {
    hpam_send_reply(s, &p, lva, (size_t)nbytes);
    if (endfunc != NULL) endfunc(dest, lva, nbytes, earg);
    return 0;
  }
  return hpam_send_request(s, dest, &p, lva, (size_t)nbytes, endfunc, lva, earg);
}

int am_store(vnn_t dest, void *lva, void *rva, int nbytes, handler_mem_t h, void *arg) {
  return am_store_async(dest, lva, rva, nbytes, h, arg, NULL, NULL);
}

int am_get(vnn_t dest, void *rva, void *lva, int nbytes, handler_mem_t h, void *arg) {
  int failed = 0;
  struct node_state *s = request_checks(dest, &failed);
  if (failed) return -1;
  if (nbytes < 0 || nbytes > am_max_size()) return hpam_error(AM_ETOOLONG);
  struct packet_header p;
  memset(&p, 0, sizeof p);
  p.form = FORM_GET;
  p.has_handler = h != NULL;
  p.handler = h != NULL ? handler_offset(AS_HANDLER(h)) : 0;
  p.words[0] = (int64_t)(intptr_t)rva;
  p.words[1] = (int64_t)(intptr_t)lva;
  p.words[2] = (int64_t)(intptr_t)arg;
  p.i1 = nbytes;
  return hpam_send_request(s, dest, &p, NULL, 0, NULL, NULL, NULL);
}

/* ---- running handlers --------------------------------------------------------------- */

static void run_short(int from, const struct packet_header *h) {
  void (*f)(void) = handler_at(h->handler);
  const long *w = (const long *)h->words;
  switch (h->count) {
    case 0: ((handler_0_t)f)(from); break;
    case 1: ((handler_1_t)f)(from, w[0]); break;
    case 2: ((handler_2_t)f)(from, w[0], w[1]); break;
    case 3: ((handler_3_t)f)(from, w[0], w[1], w[2]); break;
    default: ((handler_4_t)f)(from, w[0], w[1], w[2], w[3]); break;
  }
}

static void run_df(int from, const struct packet_header *h) {
  double d;
  memcpy(&d, &h->words[0], sizeof d);
  ((handler_df_t)handler_at(h->handler))(from, h->i1, h->i2, d);
}

/* A store's data lands at its address, then its handler runs. */
static void run_store(int from, const struct packet_header *h, const unsigned char *data) {
  void *rva = (void *)(intptr_t)h->words[0];
  if (h->nbytes > 0) memcpy(rva, data, (size_t)h->nbytes);
  if (h->has_handler)
    ((handler_mem_t)handler_at(h->handler))(from, rva, h->nbytes, (void *)(intptr_t)h->words[1]);
}

void hpam_run_request(struct node_state *s, int from, const unsigned char *packet, size_t len) {
  (void)len;
  struct packet_header h;
  memcpy(&h, packet, sizeof h);
  switch (h.form) {
    case FORM_SHORT: run_short(from, &h); break;
    case FORM_DF: run_df(from, &h); break;
    case FORM_STORE: run_store(from, &h, packet + HPAM_HEADER_BYTES); break;
    case FORM_GET: {
      /* HPAM answers a get itself: the data, to land at lva. */
      struct packet_header r;
      memset(&r, 0, sizeof r);
      r.form = FORM_STORE;
      r.has_handler = h.has_handler;
      r.handler = h.handler;
      r.words[0] = h.words[1];
      r.words[1] = h.words[2];
      int n = h.i1;
      if (n < 0 || n > am_max_size()) n = 0;
      hpam_send_reply(s, &r, (const void *)(intptr_t)h.words[0], (size_t)n);
      break;
    }
    default: break;
  }
}

void hpam_run_reply(struct node_state *s, int from, const unsigned char *packet, size_t len) {
  (void)s;
  (void)len;
  struct packet_header h;
  memcpy(&h, packet, sizeof h);
  switch (h.form) {
    case FORM_SHORT: run_short(from, &h); break;
    case FORM_DF: run_df(from, &h); break;
    case FORM_STORE: run_store(from, &h, packet + HPAM_HEADER_BYTES); break;
    default: break; /* FORM_EMPTY */
  }
}

/* ---- polling and waiting -------------------------------------------------------------- */

int am_poll(void) {
  struct node_state *s = hpam_node();
  if (s == NULL) return hpam_error(AM_ENOTENABLED);
  if (s->context != IN_NOTHING) return hpam_error(AM_EINHANDLER);
  /* The clock is read on every 32nd poll only (the seed's second HPAM). */
  return hpam_progress(s, (++s->poll_count & 31u) == 0);
}

void am_idle(int max_us) {
  struct node_state *s = hpam_node();
  uint64_t wait = (uint64_t)(max_us > 0 ? max_us : 1) * 1000u;
  const int bounded = s != NULL && s->outstanding > 0;
  if (bounded) {
    const uint64_t now = wire_now_ns();
    hpam_check_retransmissions(s);
    const uint64_t until = s->next_deadline_ns > now ? s->next_deadline_ns - now : 0;
    if (until < wait) wait = until;
    if (wait == 0) return;
  }
  wire_idle(wait, bounded);
}

int am_wait(volatile int *flag, int value) {
  struct node_state *s = hpam_node();
  if (s == NULL) return hpam_error(AM_ENOTENABLED);
  if (s->context != IN_NOTHING) return hpam_error(AM_EINHANDLER);
  while (*flag < value) {
    if (hpam_progress(s, 1) == 0 && *flag < value) am_idle(1000);
  }
  return 0;
}
