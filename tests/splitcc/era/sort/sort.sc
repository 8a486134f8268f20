/* sort.sc: a bucket sort as the era's sorting programs wrote it. Counts go
 * out with `:-` into a spread array and are waited for with store_sync, then
 * reset_store_sync; the keys go out with bulk_store and `:-`, and the round
 * ends with all_store_sync. Also: on_proc, tolocal/toproc of an element
 * reached through a spread pointer, the later releases' gathers, and a
 * splitc_main of implicit int that returns nothing. */
#include <split-c/split-c.h>
#include "era.h"

struct pair { int key; double weight; };

int keysin[PROCS]::[CAP];           /* one block of received keys per processor */
extern int own_gather_calls;

static void check_locality()
{
  int *spread A;
  double *spread D;
  struct pair *spread S;
  int *a, p, bad = 0;

  A = all_spread_malloc(PROCS, sizeof(int));
  D = all_spread_malloc(PROCS, sizeof(double));
  S = all_spread_malloc(PROCS, sizeof(struct pair));
  a = tolocal(A[MYPROC]);             /* the element's local address */
  *a = 10 * MYPROC + 1;
  *(double *)tolocal(D[MYPROC]) = MYPROC + 0.5;
  ((struct pair *)tolocal(S[MYPROC]))->key = MYPROC;
  CHECK(tolocal(A[MYPROC]) == tolocal(&A[MYPROC]), "tolocal(A[MYPROC]) != tolocal(&A[MYPROC])");
  barrier();
  for (p = 0; p < PROCS; p++) {
    if (A[p] != 10 * p + 1 || D[p] != p + 0.5 || S[p].key != p) bad++;
    if (toproc(A[p]) != p || toproc(D[p]) != p || toproc(S[p]) != p) bad++;
    if (toproc(keysin[p][3]) != p || toproc(&keysin[p][3]) != p) bad++;
  }
  CHECK(tolocal(keysin[MYPROC][2]) == &((int *)tolocal(keysin[MYPROC]))[2], "tolocal(keysin[MYPROC][2])");
  CHECK(bad == 0, "tolocal/toproc of spread-array elements");
  barrier();
  all_spread_free(S);
  all_spread_free(D);
  all_spread_free(A);
}

splitc_main(argc, argv)
     int argc;
     char **argv;
{
  int *spread counts;                 /* counts[s * PROCS + d] lives on d */
  int mine[NKEYS], nmine = 0, out[NKEYS];
  int *sendcount, *offset, *in;
  int i, d, s, n, got, total, expected_sum, sum, ran, lo;
  int val[64], cat[64];
  double w[64];

  CHECK(PROCS <= 64, "at most 64 processors");
  check_locality();

  for (i = MYPROC; i < NKEYS; i += PROCS) mine[nmine++] = key_of(i);
  sendcount = (int *)calloc(PROCS, sizeof(int));
  offset = (int *)calloc(PROCS, sizeof(int));
  for (i = 0; i < nmine; i++) sendcount[bucket_of(mine[i])]++;

  /* The counts, one int to each processor with `:-`; each waits for its PROCS. */
  counts = all_spread_malloc(PROCS * PROCS, sizeof(int));
  for (d = 0; d < PROCS; d++) STORE(counts[MYPROC * PROCS + d], sendcount[d]);
  store_sync(PROCS * sizeof(int));
  barrier();

  /* Where this processor's keys go in each receiver's block: after the
   * lower processors' (split-phase reads, one sync). */
  for (d = 0; d < PROCS; d++)
    for (s = 0; s < MYPROC; s++) {
      GET(n, counts[s * PROCS + d]);
      sync();
      offset[d] += n;
    }
  /* The keys: bulk_store for all but the last of each bucket, `:-` for it. */
  for (d = 0; d < PROCS; d++) {
    n = 0;
    for (i = 0; i < nmine; i++)
      if (bucket_of(mine[i]) == d) out[n++] = mine[i];
    if (n > 1) bulk_store(&keysin[d][offset[d]], out, (n - 1) * sizeof(int));
    if (n > 0) STORE(keysin[d][offset[d] + n - 1], out[n - 1]);
  }
  /* A receiver resets its store count with keys still arriving: the bytes
   * arriving after it must still let all_store_sync end. */
  reset_store_sync();
  all_store_sync();

  got = 0;
  for (s = 0; s < PROCS; s++) got += *(int *)tolocal(counts[s * PROCS + MYPROC]);
  in = (int *)tolocal(keysin[MYPROC]);
  sort_keys(in, got);
  CHECK(check_sorted(in, got), "received keys not sorted");
  lo = MYPROC * KEYRANGE / PROCS;
  for (i = 0; i < got; i++) CHECK(bucket_of(in[i]) == MYPROC, "a key in the wrong bucket");
  sum = 0;
  for (i = 0; i < got; i++) sum += in[i];
  expected_sum = 0;
  for (i = 0; i < NKEYS; i++) expected_sum += key_of(i);
  total = all_reduce_to_all_add(got);
  sum = all_reduce_to_all_add(sum);
  CHECK(total == NKEYS, "keys lost or duplicated");
  CHECK(sum == expected_sum, "key sum differs");

  /* The later releases' gathers: the library's all_gather and all_concat,
   * the program's own all_gather_d (gather.sc). */
  val[0] = got;
  all_gather(val);
  on_one {
    n = 0;
    for (s = 0; s < PROCS; s++) n += val[s];
    CHECK(n == NKEYS, "all_gather");
  }
  cat[0] = got > 0 ? in[0] : lo;
  all_concat(cat);
  for (s = 0; s < PROCS; s++) CHECK(bucket_of(cat[s]) == s, "all_concat");
  w[0] = twice(got) + 0.25;
  all_gather_d(w);
  CHECK(own_gather_calls == 1, "the program's all_gather_d did not run");
  on_one {
    for (s = 0; s < PROCS; s++) CHECK(w[s] == 2 * val[s] + 0.25, "all_gather_d");
  }

  /* on_proc: one processor, the last. */
  ran = 0;
  on_proc(PROCS - 1) { ran = counted(1); }
  CHECK(all_reduce_to_all_add(ran) == 1, "on_proc ran on other than one processor");
  on_proc(PROCS - 1) CHECK(ncounted == 1, "the static counter of an inline function");

  barrier();
  on_one printf("result keys %d sum %d\n", total, sum);
  on_one printf("PASS sort\n");
  /* No return: reaching the end returns 0, as C99's main. */
}
