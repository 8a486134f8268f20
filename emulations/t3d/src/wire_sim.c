/* The T3D SHMEM emulation's substrate on the sim backend's engine (wire.h,
 * splitc/sim_engine.h): each PE's symmetric heap is its engine segment (the
 * same address on every simulated processor); puts and gets are the engine's
 * one-sided splitc_sim_put/get, charged by SPLITC_SIM_MACHINE (t3d: a put
 * costs the sender o_s + n*G and lands L later, a get a whole round trip);
 * the barrier is the engine's control network. Statics are shared by every
 * simulated processor: per-PE state lives in arrays indexed by the PE. */
#include <splitc/sim_engine.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wire.h"

/* The T3D's barrier network: one network latency of the t3d model (README, [U]),
 * unless the machine model gives its collective hardware another figure. */
static const double t3d_barrier_ns = 900.0;

struct pe_wire {
  struct t3d_local local;
  int last_put_pe; /* the target of the latest put not yet quieted, or -1 */
};

static struct pe_wire *pes;  /* one per simulated processor */
static int relax_channel = -1;

/* Swaps are atomic at the target's memory: the engine has no remote atomic,
 * so the machine's swapped words are kept here (one table for the whole
 * simulated machine; a processor never switches inside wire_swap), and
 * every swap also puts its value into the target's memory. A put over a
 * swapped word replaces it. */
struct swapped_word {
  int pe;
  size_t offset;
  long value;
};
static struct swapped_word *swapped;
static size_t nswapped, swapped_capacity;

/* Every entry point comes here first: outside a job, the first call runs the
 * whole job (each processor calling main again) and never returns. */
static struct pe_wire *self_wire(void) {
  splitc_sim_enter();
  if (pes == NULL) {
    pes = calloc((size_t)splitc_sim_procs(), sizeof *pes);
    if (pes == NULL) splitc_sim_fail("T3D SHMEM", "out of memory");
  }
  return &pes[splitc_sim_self()];
}

struct t3d_local *wire_local(void) { return &self_wire()->local; }

void wire_start(struct t3d_local *l) {
  struct pe_wire *w = self_wire();
  l->pe = splitc_sim_self();
  l->npes = splitc_sim_procs();
  l->heap = splitc_sim_segment(&l->heap_bytes);
  w->last_put_pe = -1;
  relax_channel = splitc_sim_channel("t3d-relax", 0);
}

static void forget_swapped(int pe, size_t offset, size_t len) {
  for (size_t i = 0; i < nswapped;) {
    if (swapped[i].pe == pe && swapped[i].offset + 8 > offset && swapped[i].offset < offset + len)
      swapped[i] = swapped[--nswapped];
    else
      ++i;
  }
}

void wire_put(int pe, size_t offset, const void *src, size_t len) {
  struct pe_wire *w = self_wire();
  if (nswapped != 0) forget_swapped(pe, offset, len);
  splitc_sim_put(pe, offset, src, len);
  w->last_put_pe = pe;
}

/* The engine's get lands the target's puts that reached it before the
 * request (this PE's own after a quiet among them), then reads. */
void wire_get(int pe, size_t offset, void *dst, size_t len) {
  splitc_sim_get(pe, offset, dst, len);
  for (size_t i = 0; i < nswapped; ++i) {  /* a swapped word's value, even before it lands */
    const struct swapped_word *s = &swapped[i];
    if (s->pe == pe && s->offset >= offset && s->offset + 8 <= offset + len)
      memcpy((unsigned char *)dst + (s->offset - offset), &s->value, 8);
  }
}

long wire_swap(int pe, size_t offset, long value) {
  long old = 0;
  size_t i = 0;
  while (i < nswapped && !(swapped[i].pe == pe && swapped[i].offset == offset)) ++i;
  if (i < nswapped) {
    old = swapped[i].value;
    splitc_sim_get(pe, offset, &(long){0}, sizeof old);  /* the round trip's cost */
  } else {
    splitc_sim_get(pe, offset, &old, sizeof old);
    if (nswapped == swapped_capacity) {
      swapped_capacity = swapped_capacity ? 2 * swapped_capacity : 16;
      swapped = realloc(swapped, swapped_capacity * sizeof *swapped);
      if (swapped == NULL) splitc_sim_fail("T3D SHMEM", "out of memory");
    }
    swapped[nswapped++] = (struct swapped_word){pe, offset, 0};
  }
  swapped[i].value = value;
  splitc_sim_put(pe, offset, &value, sizeof value);
  return old;
}

void wire_fence(void) {}  /* the engine lands one processor's puts to one target in order */

/* Every put issued is complete: a round trip to the latest target (its puts
 * land in order, and all others were issued before it). */
void wire_quiet(void) {
  struct pe_wire *w = self_wire();
  if (w->last_put_pe < 0) return;
  long ignored;
  splitc_sim_get(w->last_put_pe, 0, &ignored, 0);
  w->last_put_pe = -1;
}

void wire_land(void) { splitc_sim_land_puts(); }

/* A poll of an empty channel: charges a poll and lets the others run. */
void wire_relax(unsigned *spins) {
  (void)spins;
  int source;
  char none;
  (void)splitc_sim_receive(relax_channel, &source, &none, 0);
}

/* The engine's wait: it lands what has arrived and returns at once if that
 * landed a put here, else sleeps until a put lands (or a packet comes). */
void wire_wait_for_put(const char *what, unsigned *spins) {
  (void)spins;
  splitc_sim_wait(what);
}

void wire_barrier(void) {
  char none = 0;
  char *all = malloc((size_t)splitc_sim_procs());
  if (all == NULL) splitc_sim_fail("T3D SHMEM", "out of memory");
  splitc_sim_exchange(&none, 1, all, splitc_sim_collective_ns("barrier", t3d_barrier_ns));
  /* Every put issued before the barrier has arrived by its end, but the
   * engine lands a processor's puts only when that processor runs: each
   * lands its own, and a second, free exchange holds everyone until all
   * have, so that a get after barrier() sees them. */
  splitc_sim_land_puts();
  splitc_sim_exchange(&none, 1, all, 0.0);
  free(all);
}

void wire_finalize(void) {}

void wire_fail(const char *message) { splitc_sim_fail("T3D SHMEM", message); }

void wire_exit_job(int status) {
  fflush(stdout);
  fflush(stderr);
  _exit(status);
}
