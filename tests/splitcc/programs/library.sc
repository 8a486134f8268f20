/* The library a Split-C program of the time calls, through splitcc: the
 * counter forms of bulk transfers and stores (bulk_get_ctr, bulk_put_ctr,
 * bulk_store_ctr, sync_ctr, is_sync_ctr, store_sync_ctr,
 * is_store_sync_ctr), is_sync, is_store_sync and reset_store_sync, the
 * collectives of every kind and type (all_reduce_to_one_*, all_reduce_to_all_*,
 * all_scan_*, all_bcast*), the atomics (exchange, test_and_set,
 * cmp_and_swap, fetch_and_add, and the typed splitc_<type>_atomic_... with a
 * _ctr form), atomic procedures returning int and double,
 * and the spread heap (all_spread_malloc, spread_malloc, spread_free,
 * all_spread_free). Each result is checked against its value computed here
 * in C; "PASS library" from processor 0 when all hold. */
#include <split-c/split-c.h>
#include <stdio.h>
#include <string.h>

#define CHUNK 96

char inbox[CHUNK];          /* filled by the left neighbour */
char inbox2[CHUNK];
Counter store_received;     /* the counter the right neighbour's stores count on */
int cell;                   /* processor 0's copy is the atomics' target */
double dcell;

static int bad = 0;
#define CHECK(cond)                                                              \
  do {                                                                           \
    if (!(cond)) {                                                               \
      printf("processor %d: %s:%d: %s\n", MYPROC, __FILE__, __LINE__, #cond);    \
      bad++;                                                                     \
    }                                                                            \
  } while (0)

static void fill(char *p, int from, int salt)
{
  int k;
  for (k = 0; k < CHUNK; k++) p[k] = (char)(from * 31 + k * 7 + salt);
}

static int same(const char *p, int from, int salt)
{
  char want[CHUNK];
  fill(want, from, salt);
  return memcmp(p, want, CHUNK) == 0;
}

/* An atomic procedure: add to the owner's double, return the new value. */
static void add_double(double *target, long tenths)
{
  *target += tenths / 10.0;
  atomic_return_d(*target);
}

static void counters(void)
{
  int right = (MYPROC + 1) % PROCS, left = (MYPROC + PROCS - 1) % PROCS;
  char out[CHUNK], back[CHUNK];
  Counter gets = SPLITC_COUNTER_INIT, puts = SPLITC_COUNTER_INIT;
  Counter sent = SPLITC_COUNTER_INIT;
  char *global right_inbox = toglobal(right, inbox);

  /* bulk_put_ctr to the right, completed by sync_ctr */
  fill(out, MYPROC, 1);
  bulk_put_ctr(right_inbox, out, CHUNK, &puts);
  sync_ctr(&puts);
  CHECK(is_sync_ctr(&puts));
  barrier();
  CHECK(same(inbox, left, 1));

  /* bulk_get_ctr of what I put, polled with is_sync_ctr */
  memset(back, 0, CHUNK);
  bulk_get_ctr(back, right_inbox, CHUNK, &gets);
  while (!is_sync_ctr(&gets)) ;
  CHECK(same(back, MYPROC, 1));
  barrier();

  /* bulk_store_ctr on explicit counters, store_sync_ctr for my share */
  fill(out, MYPROC, 2);
  bulk_store_ctr(toglobal(right, inbox2), out, CHUNK, &store_received, &sent);
  store_sync_ctr(CHUNK, &store_received, &sent);
  CHECK(same(inbox2, left, 2));
  CHECK(!is_store_sync_ctr(1, &store_received, &sent)); /* nothing more is coming */
  barrier();

  /* the default counters: is_sync after :=, is_store_sync after :- */
  {
    int x = 0;
    int *global g = toglobal(right, &cell);
    cell = 100 + MYPROC;
    barrier();
    x := *g;
    sync();
    CHECK(is_sync());
    CHECK(x == 100 + right);
    barrier();
    *g :- 200 + MYPROC;
    while (!is_store_sync(sizeof(int))) ;
    CHECK(cell == 200 + left);
    barrier();
    /* reset_store_sync forgets bytes that arrived and were not waited for */
    *g :- 300 + MYPROC;
    barrier();
    all_store_sync();
    reset_store_sync();
    CHECK(!is_store_sync(1));
    CHECK(cell == 300 + left);
    barrier();
  }
}

static void collectives(void)
{
  int P = PROCS, me = MYPROC, k;
  int sum = P * (P + 1) / 2, prefix = (me + 1) * (me + 2) / 2;
  long long big = 1LL << 40;
  int r;

  r = all_reduce_to_one_add(me + 1);
  if (me == 0) CHECK(r == sum);
  CHECK(all_reduce_to_all_add(me + 1) == sum);
  CHECK(all_reduce_to_all_uadd((unsigned)me + 1u) == (unsigned)sum);
  CHECK(all_reduce_to_all_fadd(0.5f) == 0.5f * P);
  CHECK(all_reduce_to_all_dadd(0.25 * (me + 1)) == 0.25 * sum);
  CHECK(all_reduce_to_all_lladd(big + me) == big * P + (long long)(P - 1) * P / 2);
  CHECK(all_reduce_to_all_mult(me == 0 ? 3 : 1) == 3);
  CHECK(all_reduce_to_all_dmult(2.0) == (double)(1LL << P));
  CHECK(all_reduce_to_all_max(me * 5 - 2) == (P - 1) * 5 - 2);
  CHECK(all_reduce_to_all_umax((unsigned)me) == (unsigned)(P - 1));
  CHECK(all_reduce_to_all_dmax(-1.5 * me) == 0.0);
  CHECK(all_reduce_to_all_llmax(big * me) == big * (P - 1));
  CHECK(all_reduce_to_all_min(me - 7) == -7);
  CHECK(all_reduce_to_all_fmin(1.5f + me) == 1.5f);
  if (P < 30) CHECK(all_reduce_to_all_or(1 << me) == (1 << P) - 1);
  else CHECK(all_reduce_to_all_or(0) == 0);
  CHECK(all_reduce_to_all_xor(me) == (P % 4 == 0 ? 0 : P % 4 == 1 ? P - 1 : P % 4 == 2 ? 1 : P));
  CHECK(all_reduce_to_all_and(me == 0 ? 6 : 7) == 6);
  CHECK(all_reduce_to_all_llor(1LL << (32 + me % 30)) != 0);
  r = all_reduce_to_one_max(me);
  if (me == 0) CHECK(r == P - 1);

  CHECK(all_scan_add(me + 1) == prefix);
  CHECK(all_scan_dadd(me + 1.0) == (double)prefix);
  CHECK(all_scan_max(me % 2 ? -me : me) == me - me % 2); /* the largest even one so far */
  CHECK(all_scan_min(10 - me) == 10 - me);
  CHECK(all_scan_lladd(big) == big * (me + 1));

  CHECK(all_bcast(me == 0 ? 1234 : -1) == 1234);
  CHECK(all_bcast_i(me == 0 ? -5 : 0) == -5);
  CHECK(all_bcast_u(me == 0 ? 4000000000u : 0u) == 4000000000u);
  CHECK(all_bcast_f(me == 0 ? 2.5f : 0.0f) == 2.5f);
  CHECK(all_bcast_d(me == 0 ? 3.25 : 0.0) == 3.25);
  CHECK(all_bcast_ll(me == 0 ? big + 9 : 0) == big + 9);
  for (k = 0; k < 3; k++) CHECK(all_reduce_to_all_add(k) == k * P); /* back to back */
}

static void atomics_and_heap(void)
{
  int *global target = toglobal(0, &cell);
  double *global dtarget = toglobal(0, &dcell);
  int *spread heap, *spread mine;
  int old, k, swapped;

  if (MYPROC == 0) {
    cell = 0;
    dcell = 0.0;
  }
  barrier();
  for (k = 0; k < 10; k++) fetch_and_add(target, MYPROC + 1);
  barrier();
  if (MYPROC == 0) CHECK(cell == 10 * PROCS * (PROCS + 1) / 2);
  barrier();
  /* cmp_and_swap: exactly one processor wins each round */
  if (MYPROC == 0) cell = -1;
  barrier();
  swapped = cmp_and_swap(target, -1, MYPROC);
  CHECK(all_reduce_to_all_add(swapped) == 1);
  barrier();
  /* test_and_set: exactly one sees 0 */
  if (MYPROC == 0) cell = 0;
  barrier();
  old = test_and_set(target);
  CHECK(all_reduce_to_all_add(old == 0) == 1);
  barrier();
  /* exchange: the values seen and the last one left are the set put in */
  if (MYPROC == 0) cell = -1;
  barrier();
  old = exchange(target, MYPROC);
  barrier(); /* every exchange is done */
  {
    int left = cell; /* only processor 0's copy is the target */
    int total = all_reduce_to_all_add(old) + all_bcast(MYPROC == 0 ? left : 0);
    CHECK(total == -1 + (PROCS - 1) * PROCS / 2);
  }
  barrier();
  /* an atomic procedure returning double */
  {
    double v = atomic_d(add_double, dtarget, 5); /* + 0.5 each */
    CHECK(v >= 0.5 && v <= 0.5 * PROCS);
  }
  barrier();
  if (MYPROC == 0) CHECK(dcell == 0.5 * PROCS);
  barrier();
  /* the typed atomics: a maximum, bits, a double sum, one split-phase on a counter */
  {
    Counter c = SPLITC_COUNTER_INIT;
    int before;
    if (MYPROC == 0) { cell = 0; dcell = 0.0; }
    barrier();
    splitc_int_atomic_max(target, MYPROC * 3);
    barrier();
    splitc_int_atomic_fetch_or_ctr(&before, target, 1 << 20, &c);
    splitc_double_atomic_add(dtarget, 0.25);
    sync_ctr(&c);
    CHECK((before & ~(1 << 20)) <= 3 * (PROCS - 1));
    barrier();
    CHECK(splitc_int_atomic_load(target) == ((1 << 20) | (3 * (PROCS - 1))));
    CHECK(splitc_double_atomic_fetch_add(dtarget, 0.0) == 0.25 * PROCS);
    barrier();
  }

  /* the spread heap: a collective array of 3 ints per processor, cyclic */
  heap = all_spread_malloc(3 * PROCS, sizeof(int));
  CHECK(heap != NULL);
  for (k = MYPROC; k < 3 * PROCS; k += PROCS) heap[k] = k * 11;
  barrier();
  for (k = 0; k < 3 * PROCS; k++) CHECK(heap[k] == k * 11);
  CHECK(toproc(heap + 1) == 1 % PROCS);
  barrier();
  all_spread_free(heap);
  /* one processor's own allocation, freed by itself */
  mine = spread_malloc(PROCS, sizeof(int));
  CHECK(mine != NULL);
  mine[MYPROC] = 77;
  CHECK(mine[MYPROC] == 77);
  spread_free(mine);
  barrier();
}

int splitc_main(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  counters();
  collectives();
  atomics_and_heap();
  bad = all_reduce_to_all_add(bad);
  on_one { printf(bad ? "FAIL library\n" : "PASS library\n"); }
  return bad != 0;
}
