/* Radix sort in Split-C (the Libsplit-C report's application, section 6.2):
 * N keys per processor, RADIX_BITS per pass. Each pass counts digits into a
 * spread array (column p on processor p), every processor reads the counts
 * it needs to place its keys, and sends each key to its place with a
 * signalling store into a blocked spread array; store_sync(N keys) tells it
 * its own N have arrived. Checked: the keys end sorted across processors
 * and are the same multiset (count, sum and xor) as before. Processor 0 also
 * prints one "result" line per processor (a digest of its sorted keys), which
 * the test splitcc.compare.radix.* checks against the C++ reference,
 * tests/splitcc/reference/radix_ref.cpp. */
#include <split-c/split-c.h>
#include <stdio.h>

#include "result_digest.h"

#define N 500
#define RADIX_BITS 6
#define RADIX (1 << RADIX_BITS)
#define KEY_BITS 18

unsigned keys[N];
unsigned dest[PROCS]::[N];
int counts[RADIX][PROCS]::;

static unsigned key_of(int proc, int i)
{
  unsigned x = (unsigned)(proc * 7919 + i) * 2654435761u;
  return (x >> 7) & ((1u << KEY_BITS) - 1);
}

static void all_radix_pass(int shift)
{
  int d, p, i, local[RADIX], offset[RADIX];
  long before = 0;
  for (d = 0; d < RADIX; d++) local[d] = 0;
  for (i = 0; i < N; i++) local[(keys[i] >> shift) & (RADIX - 1)]++;
  barrier(); /* everybody is done reading the last pass's counts */
  for (d = 0; d < RADIX; d++) counts[d][MYPROC] = local[d];
  barrier();
  for (d = 0; d < RADIX; d++) {
    offset[d] = (int)before;
    for (p = 0; p < PROCS; p++) {
      int c = counts[d][p];
      if (p < MYPROC) offset[d] += c;
      before += c;
    }
  }
  for (i = 0; i < N; i++) {
    unsigned k = keys[i];
    int pos = offset[(k >> shift) & (RADIX - 1)]++;
    dest[pos / N][pos % N] :- k;
  }
  store_sync(N * sizeof(unsigned));
  {
    unsigned *mine = tolocal(dest[MYPROC]);
    for (i = 0; i < N; i++) keys[i] = mine[i];
  }
}

/* The result lines: a digest of this processor's keys in order. */
static void print_result(void)
{
  int i;
  digest_start();
  for (i = 0; i < N; i++) digest_key(keys[i]);
  digest_print("result radix", NULL);
}

int splitc_main(int argc, char **argv)
{
  int i, shift, bad = 0;
  long sum = 0, sum_after = 0;
  unsigned xor_before = 0, xor_after = 0, next;

  for (i = 0; i < N; i++) {
    keys[i] = key_of(MYPROC, i);
    sum += keys[i];
    xor_before ^= keys[i];
  }
  for (shift = 0; shift < KEY_BITS; shift += RADIX_BITS) all_radix_pass(shift);
  barrier();

  for (i = 0; i < N; i++) {
    sum_after += keys[i];
    xor_after ^= keys[i];
    if (i > 0 && keys[i - 1] > keys[i]) bad++;
  }
  if (MYPROC + 1 < PROCS) {
    next = dest[MYPROC + 1][0]; /* the next processor's smallest key */
    if (keys[N - 1] > next) bad++;
  }
  if (all_reduce_to_all_lladd(sum) != all_reduce_to_all_lladd(sum_after)) bad++;
  if (all_reduce_to_all_uxor(xor_before) != all_reduce_to_all_uxor(xor_after)) bad++;
  bad = all_reduce_to_all_add(bad);
  print_result();
  on_one { printf(bad ? "FAIL radix (%d)\n" : "PASS radix\n", bad); }
  return bad != 0;
}
