/* Bulk transfers and store synchronisation in C, after Libsplit-C's bulk
 * operations (§3.2) and the Split-C paper's all-to-all exchange of radix
 * sort (§5.2: every processor stores its keys into the others, then waits
 * with store_sync for the bytes it knows it will receive). Every byte moved
 * is a function of (sender, receiver, offset) and is checked. */
#include "own_main.h"
#include "report.h"

#include <stdlib.h>
#include <string.h>

enum { CHUNK = 4099, BIG = 300001 };

static unsigned char pattern(int from, int to, size_t i, int round) {
  return (unsigned char)(from * 31 + to * 7 + (int)(i * 13) + round * 101);
}
static void fill(unsigned char *buf, int from, int to, size_t n, int round) {
  for (size_t i = 0; i < n; ++i) buf[i] = pattern(from, to, i, round);
}
static int same(const unsigned char *buf, int from, int to, size_t n, int round) {
  for (size_t i = 0; i < n; ++i)
    if (buf[i] != pattern(from, to, i, round)) return 0;
  return 1;
}

/* char R[PROCS]::[PROCS*CHUNK]: slot `from` of processor `to`. */
static __globPtrType R;
static __globPtrType slot(int to, int from) {
  return splitc_spread_element(R, splitc_place_block_cyclic((size_t)to * PROCS * CHUNK + (size_t)from * CHUNK,
                                                            (size_t)PROCS * CHUNK),
                               (size_t)PROCS * CHUNK, 1);
}
static unsigned char *my_slot(int from) { return tolocal(slot(MYPROC, from)); }

/* The store counter the stores of step 4 count on: at the same address on every processor, as
 * a store counter must be. In the spread heap, not a static, so that it is every processor's own
 * on a backend whose processors share one process (sim and the ports' _sim variants). */
static __globPtrType C;
static Counter *received_here_counter(void) {
  return tolocal(splitc_spread_element(C, splitc_place_block_cyclic((size_t)MYPROC * sizeof(Counter),
                                                                     sizeof(Counter)),
                                       sizeof(Counter), 1));
}

int splitc_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  R = all_spread_malloc(PROCS, PROCS * CHUNK);
  CHECK(R.addr != NULL);
  C = all_spread_malloc(PROCS, sizeof(Counter));
  Counter *received_here = received_here_counter();
  *received_here = (Counter)SPLITC_COUNTER_INIT;
  unsigned char *out = malloc(CHUNK), *in = malloc(CHUNK);

  /* 1. all-to-all with bulk_store, completed by store_sync(bytes expected) */
  unsigned char *keys = malloc((size_t)PROCS * CHUNK); /* one run per destination */
  for (int to = 0; to < PROCS; ++to) {
    fill(keys + (size_t)to * CHUNK, MYPROC, to, CHUNK, 1);
    bulk_store(slot(to, MYPROC), keys + (size_t)to * CHUNK, CHUNK);
  }
  store_sync(PROCS * CHUNK);
  for (int from = 0; from < PROCS; ++from) CHECK(same(my_slot(from), from, MYPROC, CHUNK, 1));
  barrier();

  /* 2. bulk_get what I stored into every processor, then sync() */
  unsigned char *back = malloc((size_t)PROCS * CHUNK);
  for (int to = 0; to < PROCS; ++to) bulk_get(back + (size_t)to * CHUNK, slot(to, MYPROC), CHUNK);
  splitc_sync();
  for (int to = 0; to < PROCS; ++to) CHECK(same(back + (size_t)to * CHUNK, MYPROC, to, CHUNK, 1));
  barrier();

  /* 3. bulk_put_ctr to the right neighbour, sync_ctr; it checks after a barrier */
  const int right = (MYPROC + 1) % PROCS, left = (MYPROC + PROCS - 1) % PROCS;
  Counter puts = SPLITC_COUNTER_INIT;
  fill(out, MYPROC, right, CHUNK, 3);
  bulk_put_ctr(slot(right, MYPROC), out, CHUNK, &puts);
  sync_ctr(&puts);
  barrier();
  CHECK(same(my_slot(left), left, MYPROC, CHUNK, 3));
  barrier();

  /* 4. bulk_store_ctr on explicit counters, store_sync_ctr for my share */
  Counter sent = SPLITC_COUNTER_INIT;
  fill(out, MYPROC, left, CHUNK, 4);
  bulk_store_ctr(slot(left, MYPROC), (char *)out, CHUNK, received_here, &sent);
  store_sync_ctr(CHUNK, received_here, &sent);
  CHECK(same(my_slot(right), right, MYPROC, CHUNK, 4));
  CHECK(!is_store_sync_ctr(1, received_here, &sent)); /* nothing more is coming */
  barrier();

  /* 5. blocking bulk_write of an odd length, read back with bulk_read */
  fill(out, MYPROC, right, CHUNK - 3, 5);
  bulk_write(slot(right, MYPROC), out, CHUNK - 3);
  memset(in, 0, CHUNK);
  bulk_read(in, slot(right, MYPROC), CHUNK - 3);
  CHECK(same(in, MYPROC, right, CHUNK - 3, 5));
  barrier();

  /* 6. one large bulk_put / bulk_store each way, completed by sync() and all_store_sync(); a
   *    reset_store_sync() while the store is in flight (Split-C's sorting programs) must not
   *    keep all_store_sync from balancing */
  const __globPtrType big = all_spread_malloc(PROCS, 2 * BIG);
  unsigned char *large = malloc(BIG);
  const __globPtrType big_right = splitc_spread_block(big, (size_t)right, 2 * BIG);
  fill(large, MYPROC, right, BIG, 6);
  bulk_put(big_right, large, BIG);
  splitc_sync();
  fill(large, MYPROC, right, BIG, 7);
  bulk_store(splitc_global_add(big_right, BIG, 1), large, BIG);
  reset_store_sync();
  all_store_sync();
  const unsigned char *mine = tolocal(splitc_spread_block(big, (size_t)MYPROC, 2 * BIG));
  CHECK(same(mine, left, MYPROC, BIG, 6));
  CHECK(same(mine + BIG, left, MYPROC, BIG, 7));
  barrier();

  all_spread_free(big);
  all_spread_free(R);
  free(large);
  free(back);
  free(keys);
  free(in);
  free(out);
  return report("bulk_exchange");
}
