/* The fault injection under HPAM, on either substrate: with HPAM_DROP,
 * HPAM_DUPLICATE and HPAM_REORDER (probabilities, 0..1) a sent packet is
 * lost, sent twice, or held back behind the next one, and with HPAM_CORRUPT
 * one bit of its frame is flipped on the line (its receiver drops it by the
 * frame's check, frame.h); HPAM_SEED (default 1) seeds each node's generator
 * (seed + node), so a run is reproducible. */
#include "hpam_state.h"
#include "wire.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t next_random(struct fault_settings *f) { /* xorshift64* */
  f->rng ^= f->rng >> 12;
  f->rng ^= f->rng << 25;
  f->rng ^= f->rng >> 27;
  return f->rng * 2685821657736338717ull;
}

static double uniform(struct fault_settings *f) {
  return (double)(next_random(f) >> 11) * (1.0 / 9007199254740992.0);
}

static int read_probability(const char *name, double *out) {
  const char *v = getenv(name);
  *out = 0;
  if (v == NULL || *v == '\0') return 0;
  char *end = NULL;
  errno = 0;
  const double p = strtod(v, &end);
  if (errno != 0 || *end != '\0' || !(p >= 0 && p <= 1)) {
    fprintf(stderr, "hpam: %s='%s' is not a probability (0..1)\n", name, v);
    return -1;
  }
  *out = p;
  return 0;
}

int hpam_read_faults(struct fault_settings *f, int self) {
  memset(f, 0, sizeof *f);
  if (read_probability("HPAM_DROP", &f->drop) != 0 ||
      read_probability("HPAM_DUPLICATE", &f->duplicate) != 0 ||
      read_probability("HPAM_REORDER", &f->reorder) != 0 ||
      read_probability("HPAM_CORRUPT", &f->corrupt) != 0)
    return -1;
  unsigned long long seed = 1;
  const char *v = getenv("HPAM_SEED");
  if (v != NULL && *v != '\0') {
    char *end = NULL;
    seed = strtoull(v, &end, 10);
    if (*end != '\0') {
      fprintf(stderr, "hpam: HPAM_SEED='%s' is not a number\n", v);
      return -1;
    }
  }
  f->rng = (seed + 1) * 0x9E3779B97F4A7C15ull + (uint64_t)self * 0xBF58476D1CE4E5B9ull;
  if (f->rng == 0) f->rng = 1;
  return 0;
}

void hpam_fault_flush(struct node_state *s, int force) {
  struct fault_settings *f = &s->faults;
  if (!f->held || (!force && ++f->held_polls < 8)) return;
  f->held = 0;
  wire_send(f->held_to, f->held_packet, f->held_len);
}

void hpam_fault_send(struct node_state *s, int to, const void *packet, size_t len) {
  struct fault_settings *f = &s->faults;
  ++s->stats.sent;
  if (f->drop == 0 && f->duplicate == 0 && f->reorder == 0 && f->corrupt == 0) {
    wire_send(to, packet, len);
    return;
  }
  if (uniform(f) < f->drop) {
    ++s->stats.injected_drops;
  } else if (f->corrupt > 0 && uniform(f) < f->corrupt) {
    ++s->stats.injected_corruptions;
    wire_send_noisy(to, packet, len, next_random(f));
  } else if (!f->held && uniform(f) < f->reorder) {
    ++s->stats.injected_reorders;
    f->held = 1;
    f->held_to = to;
    f->held_polls = 0;
    f->held_len = len;
    memcpy(f->held_packet, packet, len);
    return;
  } else {
    wire_send(to, packet, len);
    if (uniform(f) < f->duplicate) {
      ++s->stats.injected_duplicates;
      wire_send(to, packet, len);
    }
  }
  hpam_fault_flush(s, 1); /* what was held goes behind this one */
}
