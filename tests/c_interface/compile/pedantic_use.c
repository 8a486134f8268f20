/* Compiles without a diagnostic under -std=c11 -pedantic -Wall -Wextra: every
 * macro of splitc.h used once (atomic forms with 0 to 4 words, for_my_1d/2d,
 * the counter initialiser, the layouts) and the seed's sync() spelling with
 * POSIX's <unistd.h> included after splitc.h. */
#define _DEFAULT_SOURCE /* so that <unistd.h> declares POSIX sync() */
#define SPLITC_SEED_NAMES
#include <splitc.h>
#include <unistd.h>

static void add0(int *t) { *t += 1; }
static void add4(int *t, long a, long b, long c, long d) { *t += (int)(a + b + c + d); }
static void get1(int *t, long scale) { atomic_return_i(*t * (int)scale); }
static void half(int *t) { atomic_return_d(*t / 2.0); }

int use(__globPtrType g, __globPtrType spread) {
  Counter ctr = SPLITC_COUNTER_INIT;
  int sum = 0;
  atomic(add0, g);
  atomic(add4, g, 1, 2, 3, 4);
  sum += atomic_i(get1, g, 2);
  sum += (int)atomic_d(half, g);
  for_my_1d(i, 10) sum += (int)i;
  for_my_2d(i, j, 3, 4) sum += (int)(i * j);
  {
    const splitc_layout_2d_t l = {8, 9, 4, 3, 1, 1};
    const __globPtrType e =
        splitc_spread_element(spread, splitc_place_blocked_cyclic_2d(&l, 5, 7), 1, sizeof(int));
    sum += __i_read(e);
    __i_put_ctr(splitc_spread_element(spread, splitc_place_block_cyclic(5, 2), 2, sizeof(int)),
                sum, &ctr);
  }
  sync_ctr(&ctr);
  sync();
  return sum;
}
