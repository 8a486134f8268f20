/* Calls every name of the C interface (splitc.h) from a C11 program and
 * checks the results on every processor. Built with -std=c11 -Wall -Wextra
 * -Werror; run through splitc-run at several processor counts. */
#define SPLITC_SEED_NAMES
#include <splitc.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The failed checks of this processor: a per-processor variable, so that it
 * is this processor's count also where processors share one process. */
SPLITC_PER_PROCESSOR(int, failures);
#define CHECK(cond)                                                                  \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      fprintf(stderr, "processor %d: %s:%d: CHECK(%s) failed\n", MYPROC, __FILE__, \
              __LINE__, #cond);                                                      \
      ++*failures();                                                                 \
    }                                                                                \
  } while (0)

/* What the global pointers of the tests below name: one per processor at the
 * same address on every processor, as Split-C's global data assumes. In the
 * segment (one element of a spread array each), which is symmetric on every
 * backend, also where processors share one process and so their statics. */
struct targets {
  char c;
  short sh;
  int i;
  float f;
  double d;
  long long ll;
  int counter;
  Counter rbytes; /* explicit store counter */
  char block[4096];
};
SPLITC_PER_PROCESSOR(struct targets *, my_targets);
#define s_c ((*my_targets())->c)
#define s_sh ((*my_targets())->sh)
#define s_i ((*my_targets())->i)
#define s_f ((*my_targets())->f)
#define s_d ((*my_targets())->d)
#define s_ll ((*my_targets())->ll)
#define s_counter ((*my_targets())->counter)
#define s_rbytes ((*my_targets())->rbytes)
#define s_block ((*my_targets())->block)

/* Collective: this processor's targets, zeroed, are its element of a spread
 * array (returned, for all_spread_free). */
static __globPtrType make_targets(void) {
  __globPtrType all = all_spread_malloc(PROCS, sizeof(struct targets));
  *my_targets() = (struct targets *)tolocal(splitc_spread_index(all, MYPROC, sizeof(struct targets)));
  memset(*my_targets(), 0, sizeof(struct targets));
  barrier();
  return all;
}

/* Per-processor variables: each processor's value is its own and stays so
 * across communication (where processors share one process, others run
 * there and make theirs); the first value is the initial one. */
SPLITC_PER_PROCESSOR_INITIAL(long long, initialised, 1234LL);
static const double point_initial[3] = {0.5, 1.5, 2.5};
static splitc_per_processor_key point_key = SPLITC_PER_PROCESSOR_KEY_FROM(point_initial);

static void per_processor_variables(void) {
  CHECK(*failures() == 0);
  CHECK(*initialised() == 1234LL);
  double *point = (double *)splitc_per_processor(&point_key, sizeof point_initial);
  CHECK(point[0] == 0.5 && point[1] == 1.5 && point[2] == 2.5);
  *initialised() = 1000LL * MYPROC;
  point[1] = MYPROC;
  barrier();
  CHECK(*initialised() == 1000LL * MYPROC);
  CHECK(splitc_per_processor(&point_key, sizeof point_initial) == point);
  CHECK(point[0] == 0.5 && point[1] == MYPROC && point[2] == 2.5);
  /* Another processor's value, through a global pointer it built. */
  __globPtrType all = all_spread_malloc(PROCS, sizeof(__globPtrType));
  __globPtrType *slot = (__globPtrType *)tolocal(splitc_spread_index(all, MYPROC, sizeof(__globPtrType)));
  *slot = toglobal(MYPROC, initialised());
  barrier();
  __globPtrType right = toglobal(0, NULL);
  bulk_read(&right, toglobal((MYPROC + 1) % PROCS, slot), sizeof right);
  CHECK(toproc(right) == (MYPROC + 1) % PROCS);
  CHECK(__ll_read(right) == 1000LL * ((MYPROC + 1) % PROCS));
  barrier();
  all_spread_free(all);
}

static void add_procedure(int *target, long amount) { *target += (int)amount; }
static void fetch_procedure(int *target, long scale, long offset) {
  atomic_return_i(*target * (int)scale + (int)offset);
}
static void half_procedure(int *target) { atomic_return_d(*target / 2.0); }

static void global_memory(int right) {
  __globPtrType c = toglobal(right, &s_c), sh = toglobal(right, &s_sh), i = toglobal(right, &s_i),
                f = toglobal(right, &s_f), d = toglobal(right, &s_d), ll = toglobal(right, &s_ll);
  /* write / read */
  CHECK(__c_write(c, 'a') == 'a');
  CHECK(__sh_write(sh, 12) == 12);
  CHECK(__i_write(i, 1234) == 1234);
  CHECK(__f_write(f, 1.5f) == 1.5f);
  CHECK(__d_write(d, 2.25) == 2.25);
  CHECK(__ll_write(ll, 1LL << 40) == 1LL << 40);
  CHECK(__c_read(c) == 'a');
  CHECK(__sh_read(sh) == 12);
  CHECK(__i_read(i) == 1234);
  CHECK(__f_read(f) == 1.5f);
  CHECK(__d_read(d) == 2.25);
  CHECK(__ll_read(ll) == 1LL << 40);
  barrier();
  /* put / get with the library counter */
  __c_put(c, 'b');
  __sh_put(sh, 13);
  __i_put(i, 1235);
  __f_put(f, 2.5f);
  __d_put(d, 3.25);
  __ll_put(ll, 7LL << 40);
  sync();
  CHECK(is_sync());
  char gc;
  short gsh;
  int gi;
  float gf;
  double gd;
  long long gll;
  __c_get(&gc, c);
  __sh_get(&gsh, sh);
  __i_get(&gi, i);
  __f_get(&gf, f);
  __d_get(&gd, d);
  __ll_get(&gll, ll);
  splitc_sync();
  CHECK(gc == 'b' && gsh == 13 && gi == 1235 && gf == 2.5f && gd == 3.25 && gll == 7LL << 40);
  barrier();
  /* explicit counters */
  Counter ctr = {0};
  __c_put_ctr(c, 'x', &ctr);
  __sh_put_ctr(sh, 21, &ctr);
  __i_put_ctr(i, 22, &ctr);
  __f_put_ctr(f, 23.0f, &ctr);
  __d_put_ctr(d, 24.0, &ctr);
  __ll_put_ctr(ll, 25, &ctr);
  sync_ctr(&ctr);
  CHECK(is_sync_ctr(&ctr));
  __c_get_ctr(&gc, c, &ctr);
  __sh_get_ctr(&gsh, sh, &ctr);
  __i_get_ctr(&gi, i, &ctr);
  __f_get_ctr(&gf, f, &ctr);
  __d_get_ctr(&gd, d, &ctr);
  __ll_get_ctr(&gll, ll, &ctr);
  sync_ctr(&ctr);
  CHECK(gc == 'x' && gsh == 21 && gi == 22 && gf == 23.0f && gd == 24.0 && gll == 25);
  barrier();
  /* stores: 1+2+4+4+8+8 = 27 bytes arrive from the left neighbour */
  __c_store(c, 'y');
  __sh_store(sh, 31);
  __i_store(i, 32);
  __f_store(f, 33.0f);
  __d_store(d, 34.0);
  __ll_store(ll, 35);
  store_sync(27);
  CHECK(s_c == 'y' && s_sh == 31 && s_i == 32 && s_f == 33.0f && s_d == 34.0 && s_ll == 35);
  CHECK(!is_store_sync(1));
  barrier();
  Counter sbytes = {0};
  __c_store_ctr(c, 'z', &s_rbytes, &sbytes);
  __sh_store_ctr(sh, 41, &s_rbytes, &sbytes);
  __i_store_ctr(i, 42, &s_rbytes, &sbytes);
  __f_store_ctr(f, 43.0f, &s_rbytes, &sbytes);
  __d_store_ctr(d, 44.0, &s_rbytes, &sbytes);
  __ll_store_ctr(ll, 45, &s_rbytes, &sbytes);
  store_sync_ctr(27, &s_rbytes, &sbytes);
  CHECK(s_c == 'z' && s_sh == 41 && s_i == 42 && s_f == 43.0f && s_d == 44.0 && s_ll == 45);
  CHECK(!is_store_sync_ctr(1, &s_rbytes, &sbytes));
  barrier(); /* everyone has checked before the next store lands */
  __i_store(i, 50);
  all_store_sync();
  CHECK(s_i == 50);
  barrier();
}

static void bulk(int right) {
  char out[1000], in[1000];
  for (int k = 0; k < 1000; ++k) out[k] = (char)(k * 7 + MYPROC);
  __globPtrType block = toglobal(right, s_block);
  bulk_write(block, out, 1000);
  bulk_read(in, block, 1000);
  CHECK(memcmp(in, out, 1000) == 0);
  bulk_put(splitc_global_add(block, 1000, 1), out, 999);
  splitc_sync();
  memset(in, 0, sizeof in);
  bulk_get(in, splitc_global_add(block, 1000, 1), 999);
  splitc_sync();
  CHECK(memcmp(in, out, 999) == 0);
  Counter ctr = {0};
  bulk_put_ctr(block, out + 1, 500, &ctr);
  sync_ctr(&ctr);
  bulk_get_ctr(in, block, 500, &ctr);
  sync_ctr(&ctr);
  CHECK(memcmp(in, out + 1, 500) == 0);
  barrier();
  bulk_store(splitc_global_add(block, 2000, 1), out, 100);
  store_sync(100);
  Counter sbytes = {0};
  bulk_store_ctr(splitc_global_add(block, 3000, 1), out, 64, &s_rbytes, &sbytes);
  store_sync_ctr(64, &s_rbytes, &sbytes);
  char expect[100];
  for (int k = 0; k < 100; ++k) expect[k] = (char)(k * 7 + (MYPROC + PROCS - 1) % PROCS);
  CHECK(memcmp(s_block + 2000, expect, 100) == 0);
  CHECK(memcmp(s_block + 3000, expect, 64) == 0);
  bulk_put(block, out, 0); /* zero length is fine */
  barrier();
}

static void collectives(void) {
  const int me = MYPROC, p = PROCS;
  const int sum = p * (p - 1) / 2;
  CHECK(all_reduce_to_all_add(me) == sum);
  if (me == 0) CHECK(all_reduce_to_one_add(me) == sum); else (void)all_reduce_to_one_add(me);
  CHECK(all_reduce_to_all_uadd((unsigned)me) == (unsigned)sum);
  CHECK(all_reduce_to_all_fadd(1.0f) == (float)p);
  CHECK(all_reduce_to_all_dadd(0.5) == 0.5 * p);
  CHECK(all_reduce_to_all_lladd(1LL << 33) == (long long)p << 33);
  CHECK(all_reduce_to_all_mult(2) == 1 << p);
  CHECK(all_reduce_to_all_umult(2u) == 1u << p);
  CHECK(all_reduce_to_all_fmult(2.0f) == (float)(1 << p));
  CHECK(all_reduce_to_all_fmull(2.0f) == (float)(1 << p));
  CHECK(all_reduce_to_all_dmult(2.0) == (double)(1 << p));
  CHECK(all_reduce_to_all_llmult(2) == 1LL << p);
  CHECK(all_reduce_to_all_max(me) == p - 1 && all_reduce_to_all_min(me) == 0);
  CHECK(all_reduce_to_all_umax((unsigned)me) == (unsigned)p - 1);
  CHECK(all_reduce_to_all_umin((unsigned)me + 1) == 1u);
  CHECK(all_reduce_to_all_fmax((float)me) == (float)(p - 1));
  CHECK(all_reduce_to_all_fmin((float)me) == 0.0f);
  CHECK(all_reduce_to_all_dmax(me) == p - 1 && all_reduce_to_all_dmin(me) == 0);
  CHECK(all_reduce_to_all_llmax(me) == p - 1 && all_reduce_to_all_llmin(me) == 0);
  CHECK(all_reduce_to_all_or(1 << me) == (1 << p) - 1);
  CHECK(all_reduce_to_all_uor(1u << me) == (1u << p) - 1);
  CHECK(all_reduce_to_all_llor(1LL << me) == (1LL << p) - 1);
  CHECK(all_reduce_to_all_xor(1) == (p & 1));
  CHECK(all_reduce_to_all_uxor(1u) == (unsigned)(p & 1));
  CHECK(all_reduce_to_all_llxor(1) == (p & 1));
  CHECK(all_reduce_to_all_and(me == 0 ? 3 : 1) == (p == 1 ? 3 : 1));
  CHECK(all_reduce_to_all_uand(me == 0 ? 3u : 1u) == (p == 1 ? 3u : 1u));
  CHECK(all_reduce_to_all_lland(me == 0 ? 3 : 1) == (p == 1 ? 3 : 1));
  /* reduce to one: valid on processor 0 */
  int r = all_reduce_to_one_max(me);
  if (me == 0) CHECK(r == p - 1);
  (void)all_reduce_to_one_uadd(1u); (void)all_reduce_to_one_fadd(1.0f); (void)all_reduce_to_one_dadd(1.0);
  (void)all_reduce_to_one_lladd(1); (void)all_reduce_to_one_mult(1); (void)all_reduce_to_one_umult(1u);
  (void)all_reduce_to_one_fmult(1.0f); (void)all_reduce_to_one_fmull(1.0f); (void)all_reduce_to_one_dmult(1.0);
  (void)all_reduce_to_one_llmult(1); (void)all_reduce_to_one_umax(1u); (void)all_reduce_to_one_fmax(1.0f);
  (void)all_reduce_to_one_dmax(1.0); (void)all_reduce_to_one_llmax(1); (void)all_reduce_to_one_min(1);
  (void)all_reduce_to_one_umin(1u); (void)all_reduce_to_one_fmin(1.0f); (void)all_reduce_to_one_dmin(1.0);
  (void)all_reduce_to_one_llmin(1); (void)all_reduce_to_one_or(1); (void)all_reduce_to_one_uor(1u);
  (void)all_reduce_to_one_llor(1); (void)all_reduce_to_one_xor(1); (void)all_reduce_to_one_uxor(1u);
  (void)all_reduce_to_one_llxor(1); (void)all_reduce_to_one_and(1); (void)all_reduce_to_one_uand(1u);
  r = all_reduce_to_one_lland(1);
  if (me == 0) CHECK(r == 1);
  /* broadcast from processor 0 */
  CHECK(all_bcast(me == 0 ? 77 : -1) == 77);
  CHECK(all_bcast_i(me == 0 ? 78 : -1) == 78);
  CHECK(all_bcast_u(me == 0 ? 79u : 0u) == 79u);
  CHECK(all_bcast_f(me == 0 ? 1.25f : 0.0f) == 1.25f);
  CHECK(all_bcast_d(me == 0 ? 2.5 : 0.0) == 2.5);
  CHECK(all_bcast_ll(me == 0 ? 1LL << 50 : 0) == 1LL << 50);
  /* inclusive scans */
  CHECK(all_scan_add(1) == me + 1);
  CHECK(all_scan_uadd(1u) == (unsigned)me + 1);
  CHECK(all_scan_fadd(1.0f) == (float)(me + 1));
  CHECK(all_scan_dadd(1.0) == me + 1);
  CHECK(all_scan_lladd(1) == me + 1);
  CHECK(all_scan_mult(2) == 2 << me);
  CHECK(all_scan_umult(2u) == 2u << me);
  CHECK(all_scan_fmult(2.0f) == (float)(2 << me));
  CHECK(all_scan_fmull(2.0f) == (float)(2 << me));
  CHECK(all_scan_dmult(2.0) == (double)(2 << me));
  CHECK(all_scan_llmult(2) == 2LL << me);
  CHECK(all_scan_max(me) == me && all_scan_min(me) == 0);
  CHECK(all_scan_umax((unsigned)me) == (unsigned)me && all_scan_ymax((unsigned)me) == (unsigned)me);
  CHECK(all_scan_umin((unsigned)me) == 0u);
  CHECK(all_scan_fmax((float)me) == (float)me && all_scan_fmin((float)me) == 0.0f);
  CHECK(all_scan_dmax(me) == me && all_scan_dmin(me) == 0);
  CHECK(all_scan_llmax(me) == me && all_scan_llmin(me) == 0);
  CHECK(all_scan_or(1 << me) == (2 << me) - 1);
  CHECK(all_scan_uor(1u << me) == (2u << me) - 1);
  CHECK(all_scan_llor(1LL << me) == (2LL << me) - 1);
  CHECK(all_scan_xor(1) == ((me + 1) & 1));
  CHECK(all_scan_uxor(1u) == (unsigned)((me + 1) & 1));
  CHECK(all_scan_llxor(1) == ((me + 1) & 1));
  CHECK(all_scan_and(me == 0 ? 3 : 1) == (me == 0 ? 3 : 1));
  CHECK(all_scan_uand(me == 0 ? 3u : 1u) == (me == 0 ? 3u : 1u));
  CHECK(all_scan_lland(me == 0 ? 3 : 1) == (me == 0 ? 3 : 1));
}


/* Every team name: on the world's handle each seed-named team collective gives what the
 * seed's all_ one gives (and exclusive scans the neighbour's inclusive result); on a split
 * team (even and odd processors, ranked backwards) the data movers and a few reductions
 * against the sequential answer. */
#define TEAM_MATCHES_SEED_(KIND, NAME, T)                                                 \
  {                                                                                        \
    T x = (T)(me % 3 + 1), v[3], inc, *incs = malloc(sizeof(T) * (size_t)p);               \
    T *in = malloc(sizeof(T) * 2 * (size_t)p), out[2];                                     \
    int k;                                                                                 \
    CHECK(team_reduce_to_all_##NAME(world, x) == all_reduce_to_all_##NAME(x));             \
    inc = all_scan_##NAME(x);                                                              \
    CHECK(team_scan_##NAME(world, x) == inc);                                              \
    T one = team_reduce_to_one_##NAME(world, x), seed_one = all_reduce_to_one_##NAME(x);   \
    if (me == 0) CHECK(one == seed_one);                                                   \
    team_all_gather(world, &inc, incs, (int)sizeof(T));                                    \
    T exc = team_exclusive_scan_##NAME(world, x);                                          \
    if (me > 0) CHECK(exc == incs[me - 1]);                                                \
    v[0] = v[1] = v[2] = x;                                                                \
    team_reduce_to_all_##NAME##_v(world, v, 3);                                            \
    CHECK(v[0] == all_reduce_to_all_##NAME(x) && v[2] == v[0]);                            \
    v[0] = v[1] = v[2] = x;                                                                \
    team_scan_##NAME##_v(world, v, 3);                                                     \
    CHECK(v[1] == inc);                                                                    \
    v[0] = v[1] = v[2] = x;                                                                \
    team_exclusive_scan_##NAME##_v(world, v, 3);                                           \
    if (me > 0) CHECK(v[2] == incs[me - 1]);                                               \
    v[0] = x;                                                                              \
    team_reduce_to_one_##NAME##_v(world, v, 1);                                            \
    if (me == 0) CHECK(v[0] == seed_one);                                                  \
    for (k = 0; k < 2 * p; ++k) in[k] = x;                                                 \
    team_reduce_scatter_##NAME(world, in, out, 2);                                         \
    CHECK(out[0] == all_reduce_to_all_##NAME(x) && out[1] == out[0]);                      \
    {                                                                                      \
      splitc_counter_t ctr = SPLITC_COUNTER_INIT;                                          \
      T a[3] = {x, x, x}, b[3] = {x, x, x}, e[3] = {x, x, x}, o[1] = {x}, rs[2];           \
      team_reduce_to_all_##NAME##_v_ctr(world, a, 3, &ctr);                                \
      team_scan_##NAME##_v_ctr(world, b, 3, &ctr);                                         \
      team_exclusive_scan_##NAME##_v_ctr(world, e, 3, &ctr);                               \
      team_reduce_to_one_##NAME##_v_ctr(world, o, 1, &ctr);                                \
      team_reduce_scatter_##NAME##_ctr(world, in, rs, 2, &ctr);                            \
      while (!is_sync_ctr(&ctr)) splitc_poll();                                            \
      CHECK(a[0] == all_reduce_to_all_##NAME(x) && a[2] == a[0] && b[1] == inc);           \
      if (me > 0) CHECK(e[0] == incs[me - 1]);                                             \
      if (me == 0) CHECK(o[0] == seed_one);                                                \
      CHECK(rs[0] == a[0] && rs[1] == a[0]);                                               \
    }                                                                                      \
    { /* reduce-scatterv: rank 0's block two elements, every other rank's one */           \
      splitc_counter_t ctr = SPLITC_COUNTER_INIT;                                          \
      int *cnt = malloc(sizeof(int) * (size_t)p);                                          \
      T rs[2] = {0, 0};                                                                    \
      for (k = 0; k < p; ++k) cnt[k] = k == 0 ? 2 : 1;                                     \
      team_reduce_scatterv_##NAME(world, in, out, cnt);                                    \
      CHECK(out[0] == all_reduce_to_all_##NAME(x) && (me > 0 || out[1] == out[0]));        \
      team_reduce_scatterv_##NAME##_ctr(world, in, rs, cnt, &ctr);                         \
      for (k = 0; k < p; ++k) cnt[k] = -1; /* the call copied them */                      \
      sync_ctr(&ctr);                                                                      \
      CHECK(rs[0] == out[0] && (me > 0 || rs[1] == out[0]));                               \
      free(cnt);                                                                           \
    }                                                                                      \
    free(in);                                                                              \
    free(incs);                                                                            \
  }

/* Vectors long enough for every algorithm of the reductions and scans on team `t`: many
 * mailbox messages each (the chunked tree, scans, butterfly) and past 16 KiB (binary swap, the
 * ring reduce-scatter), blocking and split-phase, against the sequential answers. */
static void long_vectors(splitc_team_t t) {
  enum { LEN = 5000 }; /* 40,000 bytes of doubles, 20,000 of ints */
  const int n = splitc_team_size(t), r = splitc_team_rank(t);
  double *d = malloc(sizeof(double) * LEN);
  int *v = malloc(sizeof(int) * LEN), *w = malloc(sizeof(int) * LEN), *out = malloc(sizeof(int) * LEN);
  int *in = malloc(sizeof(int) * LEN * (size_t)n);
  long long *ll = malloc(sizeof(long long) * LEN);
  int i, bad = 0;
  for (i = 0; i < LEN; ++i) d[i] = r + 1 + 0.5 * i;
  team_reduce_to_all_dadd_v(t, d, LEN);
  for (i = 0; i < LEN; ++i) bad += d[i] != n * (n + 1) / 2 + 0.5 * i * n;
  for (i = 0; i < LEN; ++i) v[i] = r * LEN + i;
  team_reduce_to_all_max_v(t, v, LEN);
  for (i = 0; i < LEN; ++i) bad += v[i] != (n - 1) * LEN + i;
  for (i = 0; i < LEN; ++i) ll[i] = (long long)i * (r + 1);
  team_reduce_to_one_lladd_v(t, ll, LEN);
  if (r == 0)
    for (i = 0; i < LEN; ++i) bad += ll[i] != (long long)i * n * (n + 1) / 2;
  for (i = 0; i < LEN; ++i) v[i] = w[i] = i + r;
  team_scan_add_v(t, v, LEN);
  team_exclusive_scan_add_v(t, w, LEN);
  for (i = 0; i < LEN; ++i) bad += v[i] != (r + 1) * i + r * (r + 1) / 2;
  for (i = 0; i < LEN; ++i) bad += w[i] != r * i + r * (r - 1) / 2;
  for (i = 0; i < LEN * n; ++i) in[i] = i + r;
  team_reduce_scatter_add(t, in, out, LEN);
  for (i = 0; i < LEN; ++i) bad += out[i] != n * (r * LEN + i) + n * (n - 1) / 2;
  {
    splitc_counter_t ctr = SPLITC_COUNTER_INIT;
    for (i = 0; i < LEN; ++i) d[i] = r + 1 + 0.5 * i, v[i] = i + r;
    team_reduce_to_all_dadd_v_ctr(t, d, LEN, &ctr);
    team_scan_add_v_ctr(t, v, LEN, &ctr);
    team_reduce_scatter_add_ctr(t, in, out, LEN, &ctr);
    sync_ctr(&ctr);
    for (i = 0; i < LEN; ++i) bad += d[i] != n * (n + 1) / 2 + 0.5 * i * n;
    for (i = 0; i < LEN; ++i) bad += v[i] != (r + 1) * i + r * (r + 1) / 2;
    for (i = 0; i < LEN; ++i) bad += out[i] != n * (r * LEN + i) + n * (n - 1) / 2;
  }
  { /* reduce-scatterv with unequal blocks (every third rank's empty), blocking, then
     * split-phase with the counts overwritten before the sync */
    int *counts = malloc(sizeof(int) * (size_t)n), at = 0, mine, k, round;
    for (round = 0; round < 2; ++round) {
      splitc_counter_t ctr = SPLITC_COUNTER_INIT;
      for (k = 0, at = 0; k < n; ++k) {
        counts[k] = k % 3 == 1 ? 0 : LEN - 7 * k;
        if (k < r) at += counts[k];
      }
      mine = counts[r];
      for (i = 0; i < LEN; ++i) out[i] = -1;
      if (round == 0) {
        team_reduce_scatterv_add(t, in, out, counts);
      } else {
        team_reduce_scatterv_add_ctr(t, in, out, counts, &ctr);
        for (k = 0; k < n; ++k) counts[k] = -1;
        sync_ctr(&ctr);
      }
      for (i = 0; i < mine; ++i) bad += out[i] != n * (at + i) + n * (n - 1) / 2;
      for (i = mine; i < LEN; ++i) bad += out[i] != -1;
    }
    free(counts);
  }
  CHECK(bad == 0);
  free(d), free(v), free(w), free(out), free(in), free(ll);
}

/* Byte j of what rank `from` gives rank `to` in long_blocks: every block different. */
static unsigned char block_byte(int from, int to, int j) {
  return (unsigned char)(from * 131 + to * 17 + j * 7 + (j >> 8));
}
static int block_bad(const unsigned char *at, int from, int to, int len) {
  int j, bad = 0;
  for (j = 0; j < len; ++j) bad += at[j] != block_byte(from, to, j);
  return bad;
}

/* The data movers on team `t` with blocks of 8 KiB and more, from and into malloc'd memory
 * (where smp moves a collective's long streams with one copy, SPLITC_SMP_COLLECTIVE_ONE_COPY_MIN,
 * and the other backends stage them): the equal forms with a block of BLOCK bytes (not a
 * multiple of 8), the vector forms with counts of BLOCK, 0 and 8 KiB by rank, each blocking and
 * split-phase (all in flight at once). */
static void long_blocks(splitc_team_t t) {
  enum { BLOCK = 3 * 4096 + 5, KIB8 = 8192 };
  const int n = splitc_team_size(t), r = splitc_team_rank(t);
  const size_t all_bytes = (size_t)BLOCK * (size_t)n;
  unsigned char *mine = malloc(BLOCK), *all = malloc(all_bytes), *send = malloc(all_bytes);
  unsigned char *receive = malloc(all_bytes), *root_all = malloc(all_bytes), *part = malloc(BLOCK);
  unsigned char *vall = malloc(all_bytes), *vgather = malloc(all_bytes), *vpart = malloc(BLOCK);
  unsigned char *vsend = malloc(all_bytes), *vreceive = malloc(all_bytes);
  int *counts = malloc(sizeof(int) * (size_t)n), *sc = malloc(sizeof(int) * (size_t)n);
  int *rc = malloc(sizeof(int) * (size_t)n);
  int k, j, bad = 0, round;
  const int root = n - 1;
  /* rank k's block in the vector forms: BLOCK, 0 or 8 KiB bytes */
#define VCOUNT(k) ((k) % 3 == 0 ? BLOCK : (k) % 3 == 1 ? 0 : KIB8)
  for (k = 0; k < n; ++k) counts[k] = VCOUNT(k);
  for (k = 0; k < n; ++k) sc[k] = VCOUNT(r + k), rc[k] = VCOUNT(k + r);
  for (round = 0; round < 2; ++round) {
    splitc_counter_t ctr = SPLITC_COUNTER_INIT;
    int at;
    /* what this rank gives: `mine` for the gathers (to rank 0's pattern), `send` and `vsend`
     * per destination, `root_all` at the root for the scatters */
    for (j = 0; j < BLOCK; ++j) mine[j] = block_byte(r, 0, j);
    for (k = 0; k < n; ++k)
      for (j = 0; j < BLOCK; ++j) send[(size_t)k * BLOCK + j] = block_byte(r, k, j);
    for (at = 0, k = 0; k < n; at += sc[k++])
      for (j = 0; j < sc[k]; ++j) vsend[at + j] = block_byte(r, k, j);
    for (k = 0; k < n; ++k)
      for (j = 0; j < BLOCK; ++j) root_all[(size_t)k * BLOCK + j] = block_byte(r, k, j);
    memset(all, 0, all_bytes), memset(receive, 0, all_bytes), memset(part, 0, BLOCK);
    memset(vall, 0, all_bytes), memset(vgather, 0, all_bytes), memset(vpart, 0, BLOCK);
    memset(vreceive, 0, all_bytes);
    if (round == 0) {
      team_all_gather(t, mine, all, BLOCK);
      team_all_to_all(t, send, receive, BLOCK);
      team_scatter(t, root_all, part, BLOCK, root);
      team_all_gatherv(t, mine, counts[r], vall, counts);
      team_gatherv(t, mine, counts[r], vgather, counts, root);
      team_scatterv(t, root_all, counts, vpart, counts[r], 0);
      team_all_to_allv(t, vsend, sc, vreceive, rc);
    } else {
      team_all_gather_ctr(t, mine, all, BLOCK, &ctr);
      team_all_to_all_ctr(t, send, receive, BLOCK, &ctr);
      team_scatter_ctr(t, root_all, part, BLOCK, root, &ctr);
      team_all_gatherv_ctr(t, mine, counts[r], vall, counts, &ctr);
      team_gatherv_ctr(t, mine, counts[r], vgather, counts, root, &ctr);
      team_scatterv_ctr(t, root_all, counts, vpart, counts[r], 0, &ctr);
      team_all_to_allv_ctr(t, vsend, sc, vreceive, rc, &ctr);
      sync_ctr(&ctr);
    }
    for (k = 0; k < n; ++k) {
      bad += block_bad(all + (size_t)k * BLOCK, k, 0, BLOCK);
      bad += block_bad(receive + (size_t)k * BLOCK, k, r, BLOCK);
    }
    bad += block_bad(part, root, r, BLOCK);
    for (at = 0, k = 0; k < n; at += counts[k++]) {
      bad += block_bad(vall + at, k, 0, counts[k]);
      if (r == root) bad += block_bad(vgather + at, k, 0, counts[k]);
    }
    /* the scatterv's root (rank 0) sends the first counts[r] bytes of its block for r */
    for (at = 0, k = 0; k < r; ++k) at += counts[k];
    for (j = 0; j < counts[r]; ++j) bad += vpart[j] != block_byte(0, (at + j) / BLOCK, (at + j) % BLOCK);
    for (at = 0, k = 0; k < n; at += rc[k++]) bad += block_bad(vreceive + at, k, r, rc[k]);
  }
#undef VCOUNT
  CHECK(bad == 0);
  free(mine), free(all), free(send), free(receive), free(root_all), free(part), free(vall);
  free(vgather), free(vpart), free(vsend), free(vreceive), free(counts), free(sc), free(rc);
}

static void teams(void) {
  const int me = MYPROC, p = PROCS;
  splitc_team_t world = splitc_team_world();
  CHECK(splitc_team_size(world) == p && splitc_team_rank(world) == me);
  CHECK(splitc_team_proc(world, p - 1) == p - 1 && splitc_team_rank_of(world, me) == me);
  team_barrier(world);
  SPLITC_COLLECTIVE_OPS_(TEAM_MATCHES_SEED_, any)

  /* Even and odd processors, ranked backwards. */
  splitc_team_t half = splitc_team_split(world, me % 2, -me);
  long_vectors(world);
  long_vectors(half);
  long_blocks(world);
  long_blocks(half);
  const int n = splitc_team_size(half), r = splitc_team_rank(half);
  CHECK(n == (p + 1 - me % 2) / 2);
  CHECK(splitc_team_proc(half, r) == me && splitc_team_rank_of(half, me) == r);
  CHECK(splitc_team_rank_of(half, me % 2 == 0 ? 1 : 0) == -1 || p == 1);
  {
    int sum = 0, k, mine[2], *all = malloc(sizeof(int) * 2 * (size_t)n);
    int *counts = malloc(sizeof(int) * (size_t)n), *back = malloc(sizeof(int) * 2 * (size_t)n);
    for (k = 0; k < n; ++k) sum += splitc_team_proc(half, k);
    CHECK(team_reduce_to_all_add(half, me) == sum);
    CHECK(team_reduce_to_all_max(half, me) == splitc_team_proc(half, 0));
    CHECK(team_scan_add(half, 1) == r + 1);
    CHECK(team_exclusive_scan_add(half, 1) == r);
    int b = me;
    team_bcast(half, &b, (int)sizeof b, n - 1);
    CHECK(b == splitc_team_proc(half, n - 1));
    mine[0] = me;
    mine[1] = -me;
    team_all_gather(half, mine, all, (int)sizeof mine);
    for (k = 0; k < n; ++k) CHECK(all[2 * k] == splitc_team_proc(half, k) && all[2 * k + 1] == -all[2 * k]);
    memset(back, 0, sizeof(int) * 2 * (size_t)n);
    team_gather(half, mine, back, (int)sizeof mine, 0);
    if (r == 0) CHECK(memcmp(back, all, sizeof(int) * 2 * (size_t)n) == 0);
    team_scatter(half, all, mine, (int)sizeof mine, 0);
    CHECK(mine[0] == me && mine[1] == -me);
    /* all_to_all: rank r sends 2r + q... to rank q */
    for (k = 0; k < n; ++k) all[k] = 100 * r + k;
    team_all_to_all(half, all, back, (int)sizeof(int));
    for (k = 0; k < n; ++k) CHECK(back[k] == 100 * k + r);
    /* vector forms: rank k sends k % 2 + 1 ints */
    for (k = 0; k < n; ++k) counts[k] = (k % 2 + 1) * (int)sizeof(int);
    mine[0] = mine[1] = me;
    team_all_gatherv(half, mine, counts[r], all, counts);
    {
      int at = 0;
      for (k = 0; k < n; ++k) {
        CHECK(all[at] == splitc_team_proc(half, k));
        at += k % 2 + 1;
      }
      memset(back, 0, sizeof(int) * 2 * (size_t)n);
      team_gatherv(half, mine, counts[r], back, counts, n - 1);
      if (r == n - 1) CHECK(memcmp(back, all, (size_t)at * sizeof(int)) == 0);
      mine[0] = mine[1] = -1;
      team_scatterv(half, all, counts, mine, counts[r], n - 1);
      CHECK(mine[0] == me && (r % 2 == 0 || mine[1] == me));
    }
    /* all_to_allv: one int to every rank, none back from rank 0 unless it is this one */
    {
      int *sc = malloc(sizeof(int) * (size_t)n), *rc = malloc(sizeof(int) * (size_t)n);
      for (k = 0; k < n; ++k) {
        sc[k] = r == 0 && k != 0 ? 0 : (int)sizeof(int);
        rc[k] = k == 0 && r != 0 ? 0 : (int)sizeof(int);
        all[k] = me;
      }
      memset(back, -1, sizeof(int) * 2 * (size_t)n);
      team_all_to_allv(half, all, sc, back, rc);
      {
        int at = 0;
        for (k = 0; k < n; ++k)
          if (rc[k] != 0) CHECK(back[at++] == splitc_team_proc(half, k));
      }
      free(sc);
      free(rc);
    }
    free(all);
    free(counts);
    free(back);
  }
  /* Split-phase data movers on the half team, several in flight, completed by sync_ctr. */
  {
    splitc_counter_t ctr = SPLITC_COUNTER_INIT;
    int b = r == 0 ? 5 : -1, mine = me, k;
    int *all = malloc(sizeof(int) * (size_t)n), *back = malloc(sizeof(int) * (size_t)n);
    int *sent = malloc(sizeof(int) * (size_t)n), *to_all = malloc(sizeof(int) * (size_t)n);
    int *got = malloc(sizeof(int) * (size_t)n), part = -1;
    for (k = 0; k < n; ++k) {
      sent[k] = 10 * r + k;
      to_all[k] = splitc_team_proc(half, k);
    }
    team_barrier_ctr(half, &ctr);
    team_bcast_ctr(half, &b, (int)sizeof b, 0, &ctr);
    team_all_gather_ctr(half, &mine, all, (int)sizeof mine, &ctr);
    team_gather_ctr(half, &mine, back, (int)sizeof mine, 0, &ctr);
    team_all_to_all_ctr(half, sent, got, (int)sizeof(int), &ctr);
    team_scatter_ctr(half, to_all, &part, (int)sizeof part, 0, &ctr);
    sync_ctr(&ctr);
    CHECK(b == 5 && part == me);
    for (k = 0; k < n; ++k) {
      CHECK(all[k] == splitc_team_proc(half, k));
      if (r == 0) CHECK(back[k] == all[k]);
      CHECK(got[k] == 10 * k + r);
    }
    free(all);
    free(back);
    free(sent);
    free(to_all);
    free(got);
  }
  /* Nested: the first processor of each half alone, the others together. */
  {
    splitc_team_t inner = splitc_team_split(half, r == 0 ? 0 : 1, r);
    CHECK(splitc_team_size(inner) == (r == 0 ? 1 : n - 1));
    CHECK(team_reduce_to_all_add(inner, 1) == splitc_team_size(inner));
    splitc_team_free(inner);
  }
  /* A member naming no color gets NULL. */
  {
    splitc_team_t some = splitc_team_split(world, me == 0 ? SPLITC_TEAM_NO_COLOR : 0, me);
    CHECK((some == NULL) == (me == 0));
    if (some != NULL) CHECK(team_reduce_to_all_add(some, 1) == p - 1);
    splitc_team_free(some);
  }
  {
    /* the host teams partition the processors (one per shared-memory group) */
    splitc_team_t host = splitc_team_split_by_host(world);
    CHECK(splitc_team_size(host) >= 1 && splitc_team_rank_of(host, me) == splitc_team_rank(host));
    CHECK(all_reduce_to_all_add(splitc_team_rank(host) == 0 ? splitc_team_size(host) : 0) == p);
    splitc_team_free(host);
  }
  {
    splitc_team_t row = splitc_team_grid_row(1, p), column = splitc_team_grid_column(1, p);
    CHECK(splitc_team_size(row) == p && splitc_team_rank(row) == me);
    CHECK(splitc_team_size(column) == 1 && splitc_team_rank(column) == 0);
    splitc_team_free(row);
    splitc_team_free(column);
  }
  splitc_team_free(half);
  splitc_team_free(world); /* does nothing */
}

static void heap_and_atomics(void) {
  const int me = MYPROC, p = PROCS;
  __globPtrType spread = all_spread_malloc(p, sizeof(int));
  CHECK(spread.addr != NULL && spread.proc == 0);
  /* element i of a cyclic spread array is on processor i mod PROCS */
  __globPtrType mine = splitc_spread_index(spread, me, sizeof(int));
  CHECK(toproc(mine) == me && tolocal(mine) == tolocal(spread));
  CHECK(splitc_spread_diff(mine, spread, sizeof(int)) == me);
  /* The heap's address sent as a plain value (the seed's "same address on every processor"):
   * splitc_local_copy names this processor's copy of the place, which writes reach. */
  {
    const long long zeros = all_bcast_ll((long long)(intptr_t)tolocal(spread));
    int *copy = (int *)splitc_local_copy((const void *)(intptr_t)zeros);
    CHECK(copy == (int *)tolocal(spread) && splitc_local_copy(copy) == copy);
    *copy = 100 + me;
    barrier();
    CHECK(__i_read(toglobal((me + 1) % p, copy)) == 100 + (me + 1) % p);
    barrier();
  }
  __i_write(mine, 0);
  barrier();
  __globPtrType on_zero = toglobal(0, tolocal(spread));
  for (int k = 0; k < 10; ++k) (void)fetch_and_add(on_zero, 1);
  barrier();
  if (me == 0) CHECK(*(int *)tolocal(spread) == 10 * p);
  barrier();
  __globPtrType c0 = toglobal(0, &s_counter);
  if (me == 0) s_counter = 0;
  barrier();
  for (int k = 0; k < 5; ++k) atomic(add_procedure, c0, 2L);
  barrier();
  if (me == 0) CHECK(s_counter == 10 * p);
  barrier();
  CHECK(atomic_i(fetch_procedure, c0, 2L, 1L) == 20 * p + 1);
  CHECK(atomic_d(half_procedure, c0) == 5.0 * p);
  barrier();
  if (me == 0) {
    CHECK(exchange(c0, 7) == 10 * p);
    CHECK(cmp_and_swap(c0, 7, 8) == 1);
    CHECK(cmp_and_swap(c0, 7, 9) == 0);
    CHECK(test_and_set(c0) == 8);
    CHECK(s_counter == 1);
  }
  barrier();
  /* the typed atomics on the static int (active messages, or CPU atomics where it is mapped):
   * a split-phase fetch_add per processor, then xor, min and a compare-and-swap */
  if (me == 0) s_counter = 0;
  barrier();
  {
    splitc_counter_t done = SPLITC_COUNTER_INIT;
    int old = -1;
    splitc_int_atomic_fetch_add_ctr(&old, c0, 1, &done);
    sync_ctr(&done);
    CHECK(old >= 0 && old < p);
    CHECK(all_reduce_to_all_add(old) == p * (p - 1) / 2);
    splitc_int_atomic_xor(c0, 1 << 8);
    barrier();
    CHECK(splitc_int_atomic_load(c0) == (p | ((p % 2) << 8)));
    barrier();
    splitc_int_atomic_min(c0, -me);
    barrier();
    if (me == p - 1) CHECK(splitc_int_atomic_compare_swap(c0, 1 - p, 42) == 1 - p);
    barrier();
    if (me == 0) CHECK(s_counter == 42);
  }
  barrier();
  __globPtrType one_sided = spread_malloc(3 * p, sizeof(double));
  CHECK(one_sided.addr != NULL);
  spread_free(one_sided);
  all_spread_free(spread);
}

/* Waiting on memory: each processor writes a flag word of its right neighbour, which waits
 * for it; processor 0 then watches every processor's word of its own array; signalled puts
 * into the right neighbour, which waits on their signal word. */
static void memory_waits(int right) {
  const int me = MYPROC, p = PROCS;
  __globPtrType flags = all_spread_malloc(p, (int)(64 * sizeof(int)));
  int *mine = (int *)tolocal(flags); /* the same address on every processor */
  memset(mine, 0, 64 * sizeof(int));
  barrier();
  CHECK(!splitc_int_test(&mine[0], SPLITC_CMP_GT, 1));
  __i_write(toglobal(right, &mine[0]), 1);
  splitc_int_wait_until(&mine[0], SPLITC_CMP_EQ, 1);
  CHECK(splitc_int_test(&mine[0], SPLITC_CMP_GE, 1));
  if (p <= 62) {
    __i_write(toglobal(0, &mine[1 + me]), 5 + me);
    if (me == 0) {
      size_t idx[64];
      int status[64];
      int k;
      for (k = 0; k < 64; ++k) status[k] = k == 0 || k > p;
      splitc_int_wait_until_all(mine, 64, status, SPLITC_CMP_GE, 5);
      CHECK(splitc_int_wait_until_any(mine, 64, status, SPLITC_CMP_GE, 5) == 1);
      CHECK(splitc_int_test_some(mine, 64, idx, status, SPLITC_CMP_GE, 5) == (size_t)p);
      CHECK(idx[0] == 1);
      for (k = 0; k < 64; ++k) status[k] = 1;
      CHECK(splitc_int_wait_until_any(mine, 64, status, SPLITC_CMP_EQ, 0) == SPLITC_NO_INDEX);
      CHECK(splitc_int_test_all(mine, 64, NULL, SPLITC_CMP_GE, 0));
    }
  }
  barrier();
  all_spread_free(flags);

  /* signalled puts: 8 ints and a signal word to the right neighbour, which waits on the word
   * alone; then a split-phase one that adds */
  {
    __globPtrType area = all_spread_malloc(p, (int)(16 * sizeof(int64_t)));
    int64_t *words = (int64_t *)tolocal(area);
    const int64_t data[8] = {me, me + 1, me + 2, me + 3, me + 4, me + 5, me + 6, me + 7};
    const int left = (me + p - 1) % p;
    splitc_counter_t done = SPLITC_COUNTER_INIT;
    int k;
    memset(words, 0, 16 * sizeof(int64_t));
    barrier();
    splitc_put_signal(toglobal(right, &words[1]), data, sizeof data, toglobal(right, &words[0]),
                      3, SPLITC_SIGNAL_SET);
    /* GE: the left neighbour's second put may already have added its 4 */
    splitc_uint64_wait_until((uint64_t *)&words[0], SPLITC_CMP_GE, 3);
    for (k = 0; k < 8; ++k) CHECK(words[1 + k] == left + k);
    splitc_put_signal_ctr(toglobal(right, &words[9]), data, 8, toglobal(right, &words[0]), 4,
                          SPLITC_SIGNAL_ADD, &done);
    sync_ctr(&done);
    splitc_uint64_wait_until((uint64_t *)&words[0], SPLITC_CMP_EQ, 7);
    CHECK(words[9] == left);
    barrier();
    all_spread_free(area);
  }
}

/* Strided and indexed transfers: a 2-D block put into the right neighbour's 8x10 grid and
 * got back transposed; an element list gathering one int from every processor; piece lists
 * (one empty) put and stored; the _ctr forms on a program counter. */
static void strided_and_indexed(int right) {
  const int me = MYPROC, p = PROCS, left = (MYPROC + PROCS - 1) % PROCS;
  __globPtrType area = all_spread_malloc(p, (int)(100 * sizeof(int)));
  int *grid = (int *)tolocal(area); /* 8 rows of 10, then 20 spare ints */
  int src[12], back[12], k, r, c;
  const size_t counts[2] = {4, 3};           /* 3 rows of 4 */
  const ptrdiff_t grid_strides[2] = {4, 40}; /* an int, a row of 10 */
  const ptrdiff_t packed[2] = {4, 16};
  const ptrdiff_t transposed[2] = {12, 4};
  const size_t tcounts[2] = {4, 3};
  splitc_counter_t ctr = SPLITC_COUNTER_INIT;
  for (k = 0; k < 100; ++k) grid[k] = -1;
  for (k = 0; k < 12; ++k) src[k] = me * 100 + k;
  barrier();
  bulk_put_strided(toglobal(right, &grid[2 * 10 + 1]), grid_strides, src, packed, counts, 2, 4);
  splitc_sync();
  barrier();
  for (r = 0; r < 8; ++r)
    for (c = 0; c < 10; ++c) {
      const int in = r >= 2 && r < 5 && c >= 1 && c < 5;
      CHECK(grid[r * 10 + c] == (in ? left * 100 + (r - 2) * 4 + (c - 1) : -1));
    }
  /* back[c][r] = left's block (r, c): the local side strided by columns */
  bulk_get_strided_ctr(back, transposed, toglobal(left, &grid[2 * 10 + 1]), grid_strides, tcounts,
                       2, 4, &ctr);
  sync_ctr(&ctr);
  for (r = 0; r < 3; ++r)
    for (c = 0; c < 4; ++c) CHECK(back[c * 3 + r] == ((left + p - 1) % p) * 100 + r * 4 + c);
  barrier();
  {
    __globPtrType *from = (__globPtrType *)malloc((size_t)p * sizeof *from);
    int *got = (int *)malloc((size_t)p * sizeof *got);
    int q;
    for (q = 0; q < p; ++q) from[q] = toglobal(q, &grid[2 * 10 + 1]);
    bulk_get_elements(got, from, p, sizeof(int));
    splitc_sync();
    for (q = 0; q < p; ++q) CHECK(got[q] == ((q + p - 1) % p) * 100);
    free(got);
    free(from);
  }
  barrier();
  {
    /* 3 ints to the right neighbour's spare ints 80.., and an empty piece */
    splitc_global_piece_t dst[3];
    splitc_local_piece_t from[2];
    const int vals[3] = {me + 7, me + 8, me + 9};
    dst[0].ptr = toglobal(right, &grid[80]);
    dst[0].len = sizeof(int);
    dst[1].ptr = toglobal(right, &grid[95]);
    dst[1].len = 0;
    dst[2].ptr = toglobal(right, &grid[81]);
    dst[2].len = 2 * sizeof(int);
    from[0].ptr = (void *)&vals[0];
    from[0].len = 2 * sizeof(int);
    from[1].ptr = (void *)&vals[2];
    from[1].len = sizeof(int);
    bulk_put_pieces_ctr(dst, 3, from, 2, &ctr);
    sync_ctr(&ctr);
    barrier();
    CHECK(grid[80] == left + 7 && grid[81] == left + 8 && grid[82] == left + 9);
    dst[0].ptr = toglobal(right, &grid[90]);
    dst[2].ptr = toglobal(right, &grid[91]);
    bulk_store_pieces(dst, 3, from, 2);
    store_sync(3 * (int)sizeof(int));
    CHECK(grid[90] == left + 7 && grid[91] == left + 8 && grid[92] == left + 9);
  }
  barrier();
  all_spread_free(area);
}

int splitc_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  const int right = (MYPROC + 1) % PROCS;
  splitc_poll();
  per_processor_variables();
  const __globPtrType targets = make_targets();
  global_memory(right);
  bulk(right);
  collectives();
  teams();
  memory_waits(right);
  strided_and_indexed(right);
  heap_and_atomics();
  barrier();
  all_spread_free(targets);
  if (*failures() != 0) {
    fprintf(stderr, "processor %d: %d checks failed\n", MYPROC, *failures());
    exit(1);
  }
  if (MYPROC == 0) printf("PASS c_api\n");
  return 0;
}
