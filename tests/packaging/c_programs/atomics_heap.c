/* Atomic operations, atomic procedures and the spread heap in C, after
 * Libsplit-C §3.4-§3.5 and the Split-C paper's atomic procedures: a shared
 * counter advanced with fetch_and_add, a spin lock built from test_and_set
 * and exchange protecting a plain read-modify-write, a race decided by
 * cmp_and_swap, procedures of 0 to 4 words run at the owner with atomic /
 * atomic_i / atomic_d, memory from spread_malloc by one processor, and the typed atomics
 * of issue 42 (splitc_<type>_atomic_...), blocking and split-phase. */
#include "own_main.h"
#include "report.h"

#include <stdint.h>

enum { ROUNDS = 50, LOCKED_ROUNDS = 20 };

/* Atomic procedures: run at the owner of their first argument. */
static void add_words(int *target, long a, long b, long c, long d) {
  *target += (int)(a + b + c + d);
}
static void bump(int *target) { *target += 1; }
static void scaled(int *target, long scale, long offset) {
  atomic_return_i(*target * (int)scale + (int)offset);
}
static void half(int *target) { atomic_return_d(*target / 2.0); }

int splitc_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  const int P = PROCS;
  /* int W[PROCS]::[3]: three words on every processor, all 0 to start */
  const __globPtrType W = all_spread_malloc(P, 3 * (int)sizeof(int));
  CHECK(W.addr != NULL);
  for (int k = 0; k < 3; ++k)
    *((int *)tolocal(splitc_spread_block(W, (size_t)MYPROC, 3 * sizeof(int))) + k) = 0;
  barrier();
  const __globPtrType counter = splitc_spread_block(W, 0, 3 * sizeof(int)); /* on 0 */
  const __globPtrType lock =                                                  /* on P-1 */
      splitc_global_add(splitc_spread_block(W, (size_t)P - 1, 3 * sizeof(int)), 1, sizeof(int));
  const __globPtrType guarded =                                               /* on P/2 */
      splitc_global_add(splitc_spread_block(W, (size_t)P / 2, 3 * sizeof(int)), 2, sizeof(int));

  /* fetch_and_add: the old values one processor sees increase */
  int last = -1;
  for (int r = 0; r < ROUNDS; ++r) {
    const int old = fetch_and_add(counter, MYPROC + 1);
    CHECK(old > last);
    last = old;
  }
  barrier();
  CHECK(__i_read(counter) == ROUNDS * P * (P + 1) / 2);
  barrier();

  /* a lock (test_and_set to take it, exchange to give it back) around a
   * read and a write that are not atomic by themselves */
  for (int r = 0; r < LOCKED_ROUNDS; ++r) {
    while (test_and_set(lock) != 0) splitc_poll();
    const int v = __i_read(guarded);
    __i_write(guarded, v + 1);
    CHECK(exchange(lock, 0) == 1);
  }
  barrier();
  CHECK(__i_read(guarded) == LOCKED_ROUNDS * P);
  barrier();

  /* cmp_and_swap: exactly one processor turns -1 into its number */
  if (MYPROC == 0) __i_write(counter, -1);
  barrier();
  const int won = cmp_and_swap(counter, -1, MYPROC);
  CHECK(all_reduce_to_all_add(won) == 1);
  const int winner = __i_read(counter);
  CHECK(winner >= 0 && winner < P);
  CHECK(won == (winner == MYPROC));
  barrier();

  /* atomic procedures at the owner: 0 to 4 words, results of both kinds */
  if (MYPROC == 0) __i_write(counter, 0);
  barrier();
  atomic(add_words, counter, 1, 2, 3, MYPROC);
  atomic(bump, counter);
  barrier();
  const int expect = P * 7 + P * (P - 1) / 2;
  CHECK(__i_read(counter) == expect);
  CHECK(atomic_i(scaled, counter, 3, MYPROC) == 3 * expect + MYPROC);
  CHECK(atomic_d(half, counter) == expect / 2.0);
  barrier();

  /* spread_malloc by processor 0 alone; the address travels by broadcast */
  const int n = 5 * P;
  __globPtrType S = toglobal(0, NULL);
  if (MYPROC == 0) {
    S = spread_malloc(n, (int)sizeof(long long));
    CHECK(S.addr != NULL);
  }
  S = toglobal(0, (void *)(intptr_t)all_bcast_ll((long long)(intptr_t)S.addr));
  for_my_1d(i, (size_t)n) __ll_write(splitc_spread_index(S, (long)i, sizeof(long long)), 1000LL * (long long)i);
  barrier();
  long long total = 0;
  for (int i = 0; i < n; ++i) total += __ll_read(splitc_spread_index(S, i, sizeof(long long)));
  CHECK(total == 1000LL * n * (n - 1) / 2);
  barrier();
  if (MYPROC == 0) spread_free(S);
  barrier();

  /* the typed atomics (splitc_<type>_atomic_...): on processor 0's words, a 64-bit counter,
   * bits, a minimum and a double sum, blocking and with a counter */
  const __globPtrType T = all_spread_malloc(P, 4 * (int)sizeof(int64_t));
  const __globPtrType count = splitc_spread_block(T, 0, 4 * sizeof(int64_t));
  const __globPtrType bits = splitc_global_add(count, 1, sizeof(int64_t));
  const __globPtrType least = splitc_global_add(count, 2, sizeof(int64_t));
  const __globPtrType sum = splitc_global_add(count, 3, sizeof(int64_t));
  if (MYPROC == 0) {
    splitc_long_atomic_store(count, 0);
    splitc_uint64_atomic_store(bits, 0);
    splitc_int64_atomic_store(least, 1000);
    splitc_double_atomic_store(sum, 0.0);
  }
  barrier();
  long fetched[ROUNDS];
  Counter done = SPLITC_COUNTER_INIT;
  for (int r = 0; r < ROUNDS; ++r) splitc_long_atomic_fetch_add_ctr(&fetched[r], count, 1, &done);
  splitc_uint64_atomic_or(bits, (uint64_t)1 << MYPROC);
  splitc_int64_atomic_min(least, 500 - MYPROC);
  splitc_double_atomic_add_ctr(sum, 0.25, &done);
  sync_ctr(&done);
  for (int r = 1; r < ROUNDS; ++r) CHECK(fetched[r] != fetched[r - 1]);
  barrier();
  CHECK(splitc_long_atomic_load(count) == (long)ROUNDS * P);
  CHECK(splitc_uint64_atomic_fetch_xor(bits, 0) == ((uint64_t)1 << P) - 1);
  CHECK(splitc_int64_atomic_load(least) == 500 - (P - 1));
  CHECK(splitc_double_atomic_load(sum) == 0.25 * P);
  CHECK(splitc_double_atomic_compare_swap(sum, -1.0, 2.0) == 0.25 * P);
  barrier();
  all_spread_free(T);
  all_spread_free(W);
  return report("atomics_heap");
}
