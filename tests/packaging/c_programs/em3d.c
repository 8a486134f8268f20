/* EM3D in C, after the Split-C paper (§5, the electromagnetic wave
 * propagation kernel): E nodes are updated from the H nodes they depend on,
 * which live on other processors. The same step is done the paper's ways —
 * blocking reads, split-phase gets completed by sync, gets on a counter, and
 * one-way stores from the owners into ghost copies completed by store_sync
 * and all_store_sync — and each must give exactly the values computed
 * locally. All values are integers (long long), so the check is exact. */
#include "own_main.h"
#include "report.h"

enum { NODES = 40, DEG = 5, STEPS = 3 };

/* E node e of processor p depends on H node h_index(e, d) of processor
 * h_proc(p, d), with weight d + 1. */
static int h_proc(int p, int d) { return (p + d + 1) % PROCS; }
static int h_index(int e, int d) { return (e * 7 + d * 3) % NODES; }
static long long h_value(int q, int h, int step) { return q * 1000LL + h + 17LL * step; }

/* long long H[PROCS]::[NODES] (blocked) and the ghost copies
 * long long G[PROCS]::[NODES*DEG] of every H value an E node needs. */
static __globPtrType H, G;

static __globPtrType h_node(int q, int h) {
  return splitc_spread_element(H, splitc_place_block_cyclic((size_t)q * NODES + (size_t)h, NODES),
                               NODES, sizeof(long long));
}
static __globPtrType ghost(int p, int e, int d) {
  return splitc_spread_element(
      G, splitc_place_block_cyclic(((size_t)p * NODES + (size_t)e) * DEG + (size_t)d, NODES * DEG),
      NODES * DEG, sizeof(long long));
}

static void set_h(int step) {
  for (int h = 0; h < NODES; ++h) *(long long *)tolocal(h_node(MYPROC, h)) = h_value(MYPROC, h, step);
  barrier();
}

static void expect_e(const long long *e, int steps_done, const char *how) {
  for (int n = 0; n < NODES; ++n) {
    long long want = 1000000LL * MYPROC + n;
    for (int s = 0; s < steps_done; ++s)
      for (int d = 0; d < DEG; ++d) want -= (d + 1) * h_value(h_proc(MYPROC, d), h_index(n, d), s);
    if (e[n] != want) {
      CHECK(e[n] == want);
      fprintf(stderr, "processor %d: %s: E[%d] = %lld, expected %lld\n", MYPROC, how, n, e[n], want);
      return;
    }
  }
}

static void reset(long long *e) {
  for (int n = 0; n < NODES; ++n) e[n] = 1000000LL * MYPROC + n;
}

int splitc_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  H = all_spread_malloc(PROCS, NODES * (int)sizeof(long long));
  G = all_spread_malloc(PROCS, NODES * DEG * (int)sizeof(long long));
  CHECK(H.addr != NULL && G.addr != NULL);
  long long e[NODES];
  long long fetched[NODES][DEG];

  /* 1. blocking reads: E -= w * read(H) */
  reset(e);
  for (int s = 0; s < STEPS; ++s) {
    set_h(s);
    for (int n = 0; n < NODES; ++n)
      for (int d = 0; d < DEG; ++d) e[n] -= (d + 1) * __ll_read(h_node(h_proc(MYPROC, d), h_index(n, d)));
    barrier(); /* nobody changes H while others read it */
  }
  expect_e(e, STEPS, "read");

  /* 2. split-phase gets (:=), all issued, then one sync() */
  reset(e);
  for (int s = 0; s < STEPS; ++s) {
    set_h(s);
    for (int n = 0; n < NODES; ++n)
      for (int d = 0; d < DEG; ++d) __ll_get(&fetched[n][d], h_node(h_proc(MYPROC, d), h_index(n, d)));
    splitc_sync();
    for (int n = 0; n < NODES; ++n)
      for (int d = 0; d < DEG; ++d) e[n] -= (d + 1) * fetched[n][d];
    barrier();
  }
  expect_e(e, STEPS, "get + sync");

  /* 3. gets on an explicit counter */
  reset(e);
  for (int s = 0; s < STEPS; ++s) {
    set_h(s);
    Counter ctr = SPLITC_COUNTER_INIT;
    for (int n = 0; n < NODES; ++n)
      for (int d = 0; d < DEG; ++d)
        __ll_get_ctr(&fetched[n][d], h_node(h_proc(MYPROC, d), h_index(n, d)), &ctr);
    sync_ctr(&ctr);
    CHECK(is_sync_ctr(&ctr));
    for (int n = 0; n < NODES; ++n)
      for (int d = 0; d < DEG; ++d) e[n] -= (d + 1) * fetched[n][d];
    barrier();
  }
  expect_e(e, STEPS, "get_ctr + sync_ctr");

  /* 4. the owners push: each H owner stores (:-) its values into the ghost
   * slots of the E nodes that need them; a processor knows how many bytes it
   * receives (NODES * DEG values), so store_sync(n) completes the step; the
   * last step uses all_store_sync() instead. */
  reset(e);
  for (int s = 0; s < STEPS; ++s) {
    for (int p = 0; p < PROCS; ++p)
      for (int n = 0; n < NODES; ++n)
        for (int d = 0; d < DEG; ++d)
          if (h_proc(p, d) == MYPROC) __ll_store(ghost(p, n, d), h_value(MYPROC, h_index(n, d), s));
    if (s + 1 < STEPS) {
      store_sync(NODES * DEG * (int)sizeof(long long));
    } else {
      all_store_sync();
    }
    for (int n = 0; n < NODES; ++n)
      for (int d = 0; d < DEG; ++d) e[n] -= (d + 1) * *(long long *)tolocal(ghost(MYPROC, n, d));
    barrier(); /* ghosts are overwritten in the next step */
  }
  expect_e(e, STEPS, "store + store_sync");

  barrier();
  all_spread_free(G);
  all_spread_free(H);
  return report("em3d");
}
