/* HPAM's reliability over the unreliable network: per-destination request
 * buffers and per-source reply buffers numbered by instance, strict
 * request/reply (every request is answered; the answer is the
 * acknowledgement), in-order execution with a reorder buffer per source,
 * retransmission on timeout with exponential back-off, and the retry limit
 * that declares a node dead. */
#include "hpam_state.h"
#include "wire.h"

#include <stdlib.h>
#include <string.h>

static unsigned char *packet_buffer(void) {
  unsigned char *b = malloc(HPAM_PACKET_BYTES);
  if (b == NULL) wire_fail("out of memory for packet buffers");
  return b;
}

static void note_deadline(struct node_state *s, uint64_t deadline) {
  if (deadline < s->next_deadline_ns) s->next_deadline_ns = deadline;
}

int hpam_send_request(struct node_state *s, int dest, struct packet_header *h, const void *data,
                      size_t nbytes, handler_mem_t endfunc, void *lva, void *earg) {
  struct peer *p = &s->peers[dest];
  while (p->next_seq - p->oldest_seq >= HPAM_SLOTS) {
    if (!s->blocking) return hpam_error(AM_EBUSY);
    if (hpam_progress(s, 1) == 0 && p->next_seq - p->oldest_seq >= HPAM_SLOTS) am_idle(1000);
  }
  const uint32_t seq = p->next_seq++;
  struct request_slot *r = &p->slot[seq % HPAM_SLOTS];
  if (r->packet == NULL) {
    r->packet = packet_buffer();
    r->reply = packet_buffer();
  }
  h->type = PACKET_REQUEST;
  h->slot = (uint8_t)(seq % HPAM_SLOTS);
  h->seq = seq;
  h->src = (int16_t)s->self;
  h->nbytes = (int32_t)nbytes;
  memcpy(r->packet, h, sizeof *h);
  if (nbytes > 0) memcpy(r->packet + HPAM_HEADER_BYTES, data, nbytes);
  r->len = HPAM_HEADER_BYTES + nbytes;
  r->busy = 1;
  r->answered = 0;
  r->retries = 0;
  r->seq = seq;
  r->endfunc = endfunc;
  r->lva = lva;
  r->earg = earg;
  r->nbytes = (int)nbytes;
  r->timeout_ns = s->timeout_ns;
  r->sent_ns = wire_now_ns();
  r->deadline_ns = r->sent_ns + r->timeout_ns;
  note_deadline(s, r->deadline_ns);
  ++s->outstanding;
  hpam_fault_send(s, dest, r->packet, r->len);
  return 0;
}

/* The reply to the request being handled: kept in the reply buffer of its
 * (source, slot), then sent; a retransmitted request gets it again. */
void hpam_send_reply(struct node_state *s, struct packet_header *h, const void *data,
                     size_t nbytes) {
  struct peer *p = &s->peers[s->context_src];
  const int k = s->context_slot;
  if (p->reply[k] == NULL) p->reply[k] = packet_buffer();
  h->type = PACKET_REPLY;
  h->slot = (uint8_t)k;
  h->seq = s->context_seq;
  h->src = (int16_t)s->self;
  h->nbytes = (int32_t)nbytes;
  memcpy(p->reply[k], h, sizeof *h);
  if (nbytes > 0) memcpy(p->reply[k] + HPAM_HEADER_BYTES, data, nbytes);
  p->reply_len[k] = HPAM_HEADER_BYTES + nbytes;
  p->reply_seq[k] = s->context_seq;
  s->replied = 1;
  hpam_fault_send(s, s->context_src, p->reply[k], p->reply_len[k]);
}

/* Run a request from `from` (the next one in instance order) and answer it:
 * its handler's reply, or the empty reply. */
static void run_in_order(struct node_state *s, int from, int slot, uint32_t seq,
                         const unsigned char *packet, size_t len) {
  ++s->peers[from].expected;
  s->context = IN_REQUEST;
  s->context_src = from;
  s->context_slot = slot;
  s->context_seq = seq;
  s->replied = 0;
  hpam_run_request(s, from, packet, len);
  if (!s->replied) {
    struct packet_header empty;
    memset(&empty, 0, sizeof empty);
    empty.form = FORM_EMPTY;
    hpam_send_reply(s, &empty, NULL, 0);
  }
  s->context = IN_NOTHING;
}

/* A request arrives: the expected one runs, then those held behind it; one
 * ahead of a lost one is held in its reorder buffer (the sender has at most
 * HPAM_SLOTS in flight, so it is at most HPAM_SLOTS - 1 ahead); an old one
 * (its reply was lost, or a duplicate) is answered again from the reply
 * buffer, its handler not run twice. */
static void accept_request(struct node_state *s, int from, const struct packet_header *h,
                           const unsigned char *packet, size_t len) {
  struct peer *p = &s->peers[from];
  const int k = h->slot;
  const uint32_t ahead = h->seq - p->expected;
  if (ahead == 0) {
    run_in_order(s, from, k, h->seq, packet, len);
    for (int next = (int)(p->expected % HPAM_SLOTS); p->held[next];
         next = (int)(p->expected % HPAM_SLOTS)) {
      p->held[next] = 0;
      run_in_order(s, from, next, p->expected, p->held_packet[next], p->held_len[next]);
    }
  } else if (ahead < HPAM_SLOTS) {
    if (p->held[k]) return; /* held already: a duplicate */
    if (p->held_packet[k] == NULL) p->held_packet[k] = packet_buffer();
    memcpy(p->held_packet[k], packet, len);
    p->held_len[k] = len;
    p->held[k] = 1;
    ++s->stats.out_of_order;
  } else if (p->reply[k] != NULL && p->reply_seq[k] == h->seq && p->reply_len[k] > 0) {
    ++s->stats.duplicates_answered;
    hpam_fault_send(s, from, p->reply[k], p->reply_len[k]);
  }
}

/* Replies run in request order: one that overtook an earlier one waits in
 * its buffer. */
static void deliver_replies(struct node_state *s, int from) {
  struct peer *p = &s->peers[from];
  while (p->oldest_seq != p->next_seq) {
    struct request_slot *r = &p->slot[p->oldest_seq % HPAM_SLOTS];
    if (!r->answered) break;
    r->busy = 0;
    ++p->oldest_seq;
    --s->outstanding;
    s->context = IN_REPLY;
    hpam_run_reply(s, from, r->reply, r->reply_len);
    if (r->endfunc != NULL) r->endfunc(from, r->lva, r->nbytes, r->earg);
    s->context = IN_NOTHING;
  }
}

static void accept_reply(struct node_state *s, int from, const struct packet_header *h,
                         const unsigned char *packet, size_t len) {
  struct request_slot *r = &s->peers[from].slot[h->slot];
  if (!r->busy || r->answered || r->seq != h->seq) return; /* a duplicate */
  memcpy(r->reply, packet, len);
  r->reply_len = len;
  r->answered = 1;
  deliver_replies(s, from);
}

int hpam_progress(struct node_state *s, int check_clock) {
  int handled = 0;
  for (int i = 0; i < 64; ++i) {
    int from = -1;
    const long n = wire_receive(&from, s->receive_buffer, sizeof s->receive_buffer);
    if (n == WIRE_CORRUPT) { /* dropped by its check: the sender retransmits */
      ++s->stats.corrupt_dropped;
      continue;
    }
    if (n < 0) break;
    ++s->stats.received;
    struct packet_header h;
    if ((size_t)n < sizeof h) continue;
    memcpy(&h, s->receive_buffer, sizeof h);
    if (h.src != from || from < 0 || from >= s->procs || h.slot != h.seq % HPAM_SLOTS ||
        h.nbytes < 0 || (size_t)h.nbytes != (size_t)n - HPAM_HEADER_BYTES)
      continue; /* not one of this job's packets */
    if (h.type == PACKET_REQUEST) {
      accept_request(s, from, &h, s->receive_buffer, (size_t)n);
    } else if (h.type == PACKET_REPLY) {
      accept_reply(s, from, &h, s->receive_buffer, (size_t)n);
    } else {
      continue;
    }
    ++handled;
  }
  hpam_fault_flush(s, 0);
  if (check_clock && s->outstanding > 0) hpam_check_retransmissions(s);
  return handled;
}

void hpam_check_retransmissions(struct node_state *s) {
  const uint64_t now = wire_now_ns();
  if (now < s->next_deadline_ns) return;
  uint64_t next = UINT64_MAX;
  for (int q = 0; q < s->procs; ++q) {
    struct peer *p = &s->peers[q];
    for (uint32_t seq = p->oldest_seq; seq != p->next_seq; ++seq) {
      struct request_slot *r = &p->slot[seq % HPAM_SLOTS];
      if (r->answered) continue;
      if (now >= r->deadline_ns) {
        if (++r->retries > s->retry_limit)
          hpam_fatal(s,
                     "node %d is dead: no answer to a request after %d retransmissions "
                     "(%.1f s); ending the job",
                     q, s->retry_limit, (double)(now - r->sent_ns) / 1e9);
        ++s->stats.retransmits_timeout;
        hpam_fault_send(s, q, r->packet, r->len);
        r->timeout_ns *= 2;
        if (r->timeout_ns > s->timeout_max_ns) r->timeout_ns = s->timeout_max_ns;
        r->deadline_ns = now + r->timeout_ns;
      }
      if (r->deadline_ns < next) next = r->deadline_ns;
    }
  }
  s->next_deadline_ns = next;
}

void hpam_release_peers(struct node_state *s) {
  for (int q = 0; q < s->procs; ++q) {
    struct peer *p = &s->peers[q];
    for (int k = 0; k < HPAM_SLOTS; ++k) {
      free(p->slot[k].packet);
      free(p->slot[k].reply);
      free(p->reply[k]);
      free(p->held_packet[k]);
    }
  }
  free(s->peers);
  s->peers = NULL;
}
