/* The legacy program's main file: an implicit-int K&R splitc_main, a
 * <malloc.h>-era include, a string literal spanning lines (old GCC), a
 * blocked spread array and the seed's names. */
#include <split-c/split-c.h>
#include <malloc.h>
#include <math.h>
#include <string.h>
#include "common.h"

#define B 8
int data[PROCS]::[B];

static char *banner = "legacy
program";

splitc_main(argc, argv)
     int argc;
     char **argv;
{
  int i, bad = 0, sum;
  int *local_block;

  local_block = (int *)malloc(B * sizeof(int));
  for (i = 0; i < B; i++) data[MYPROC][i] = MYPROC * B + i;
  barrier();
  sum = count_global(data[(MYPROC + 1) % PROCS], B);
  i = (MYPROC + 1) % PROCS;
  if (sum != i * B * B + B * (B - 1) / 2) bad++;
  if (scale(1.5, 4) != 6.0 || total_calls != 1) bad++;
  if (fabs(sqrt(4.0) - 2.0) > 1e-12) bad++;
  if (strcmp(banner, "legacy\nprogram") != 0) bad++;
  free(local_block);
  bad = all_reduce_to_all_add(bad);
  on_one { printf(bad ? "FAIL legacy\n" : "PASS legacy\n"); }
  return bad;
}
