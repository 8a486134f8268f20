/* Sample sort in Split-C: every processor sorts its N keys, publishes S
 * samples in a blocked spread array, reads all of them to pick the same
 * PROCS-1 splitters, tells each destination how many keys it will send
 * (a 2-D spread array of counts), then sends every key with a signalling
 * store to its place in the destination's block and waits for its own
 * count with store_sync. Checked: each processor's keys are sorted, below
 * the next processor's, and the same multiset (count, sum, xor) as before.
 * Processor 0 also prints one "result" line per processor (a digest of the
 * keys it ends with), which the test splitcc.compare.samplesort.* checks
 * against the C++ reference, tests/splitcc/reference/samplesort_ref.cpp. */
#include <split-c/split-c.h>
#include <stdio.h>
#include <stdlib.h>

#include "result_digest.h"

#define N 700
#define S 16

unsigned keys[N];
unsigned samples[PROCS]::[S];
int counts[PROCS][PROCS]::;         /* counts[destination][source] */
unsigned received[PROCS]::[N * 8];  /* room for an uneven share */

static int by_value(const void *a, const void *b)
{
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return x < y ? -1 : x > y;
}

static unsigned key_of(int proc, int i)
{
  unsigned x = (unsigned)(proc * 104729 + i * 7 + 1) * 2246822519u;
  return x ^ (x >> 13);
}

/* The result lines: a digest of the keys this processor ends with, in order. */
static void print_result(const unsigned *out, int count)
{
  int i;
  digest_start();
  for (i = 0; i < count; i++) digest_key(out[i]);
  digest_print("result samplesort", NULL);
}

int splitc_main(int argc, char **argv)
{
  int i, d, p, total = 0, bad = 0, mine;
  unsigned *all = malloc(sizeof(unsigned) * S * PROCS);
  unsigned *splitters = malloc(sizeof(unsigned) * PROCS);
  int *send = calloc(PROCS, sizeof(int)), *offset = calloc(PROCS, sizeof(int));
  long long sum = 0, sum_after = 0;
  unsigned xor_before = 0, xor_after = 0, *out;

  for (i = 0; i < N; i++) {
    keys[i] = key_of(MYPROC, i);
    sum += keys[i];
    xor_before ^= keys[i];
  }
  qsort(keys, N, sizeof(unsigned), by_value);
  for (i = 0; i < S; i++) samples[MYPROC][i] = keys[(long)i * N / S];
  barrier();

  for (p = 0; p < PROCS; p++) bulk_read(&all[p * S], samples[p], S * sizeof(unsigned));
  qsort(all, S * PROCS, sizeof(unsigned), by_value);
  for (d = 1; d < PROCS; d++) splitters[d] = all[d * S];

  for (i = 0, d = 0; i < N; i++) {
    while (d + 1 < PROCS && keys[i] >= splitters[d + 1]) d++;
    send[d]++;
  }
  for (d = 0; d < PROCS; d++) counts[d][MYPROC] = send[d];
  barrier();
  for (d = 0; d < PROCS; d++)
    for (p = 0; p < MYPROC; p++) offset[d] += counts[d][p];
  for (p = 0; p < PROCS; p++) total += counts[MYPROC][p];
  if (total > N * 8) {
    printf("processor %d: %d keys do not fit\n", MYPROC, total);
    return 1;
  }

  for (i = 0, d = 0; i < N; i++) {
    while (d + 1 < PROCS && keys[i] >= splitters[d + 1]) d++;
    received[d][offset[d]++] :- keys[i];
  }
  store_sync(total * sizeof(unsigned));

  out = tolocal(received[MYPROC]);
  qsort(out, total, sizeof(unsigned), by_value);
  for (i = 0; i < total; i++) {
    sum_after += out[i];
    xor_after ^= out[i];
    if (i > 0 && out[i - 1] > out[i]) bad++;
  }
  barrier();
  for (p = MYPROC + 1; p < PROCS; p++) {
    int theirs = 0, q;
    for (q = 0; q < PROCS; q++) theirs += counts[p][q];
    if (theirs > 0) {
      if (total > 0 && out[total - 1] > received[p][0]) bad++;
      break;
    }
  }
  mine = all_reduce_to_all_add(total);
  if (mine != N * PROCS) bad++;
  if (all_reduce_to_all_lladd(sum) != all_reduce_to_all_lladd(sum_after)) bad++;
  if (all_reduce_to_all_uxor(xor_before) != all_reduce_to_all_uxor(xor_after)) bad++;
  bad = all_reduce_to_all_add(bad);
  print_result(out, total);
  on_one { printf(bad ? "FAIL samplesort (%d)\n" : "PASS samplesort\n", bad); }
  free(all);
  free(splitters);
  free(send);
  free(offset);
  return bad != 0;
}
