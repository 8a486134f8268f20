/* Addresses passed as plain values, as Split-C programs of the time passed them: processor 0
 * allocates a table in the spread heap and tells everyone where it is by broadcasting its
 * address as a number -- the same address on every processor (Luna 1994, §4.4). Each
 * processor fills its own copy through that address and reads its neighbour's through a
 * global pointer made from it. The program's own macros wrap the constructs, and its helpers
 * are old-style definitions. With splitc_local_copy it runs everywhere: on the sim, where
 * every processor's segment has its own address, the broadcast names processor 0's copy
 * (docs/sim.md, "P segments, P addresses"). */
#include "own_main.h"
#include "report.h"

#define SLOTS 16
#define MINE(a) ((int *)splitc_local_copy((const void *)(a))) /* my copy of the place */
#define ON(p, a) toglobal((p), (void *)(a))                   /* the place on processor p */
#define VALUE(p, i) (1000 * (p) + (i))

static long
table_address(slots)
int slots;
{
  __globPtrType t;
  t = all_spread_malloc(PROCS, slots * (int)sizeof(int));
  CHECK(t.addr != NULL);
  /* Processor 0's own address of its part, sent as a number, as the seed's programs did. */
  return (long)all_bcast_ll(MYPROC == 0 ? (long long)(intptr_t)tolocal(t) : 0LL);
}

static void
fill(where, slots)
long where;
int slots;
{
  int i, *mine = MINE(where);
  for (i = 0; i < slots; i++) mine[i] = VALUE(MYPROC, i);
}

static int
neighbour_agrees(where, slots)
long where;
int slots;
{
  int i, right = (MYPROC + 1) % PROCS, bad = 0;
  for (i = 0; i < slots; i++)
    if (__i_read(splitc_global_add(ON(right, where), i, sizeof(int))) != VALUE(right, i)) bad++;
  return bad == 0;
}

int splitc_main(int argc, char **argv) {
  long where;
  (void)argc;
  (void)argv;
  where = table_address(SLOTS);
  fill(where, SLOTS);
  barrier();
  CHECK(neighbour_agrees(where, SLOTS));
  CHECK(MINE(MINE(where)) == MINE(where));
  barrier();
  return report("address_table");
}
