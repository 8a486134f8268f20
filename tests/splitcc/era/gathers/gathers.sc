/* The later releases' gathers, from the library: all_gather (val[0] of
 * processor j into val[j] on processor 0), all_concat (into val[j]
 * everywhere), all_concat_d; and all_gather_d from own.sc, which wins. */
#include <split-c/split-c.h>

extern int own_calls;

splitc_main(argc, argv)
     int argc;
     char **argv;
{
  int v[64], c[64], j, bad = 0;
  double d[64], e[64];

  if (PROCS > 64) return 1;
  v[0] = 3 * MYPROC + 1;
  c[0] = 5 * MYPROC + 2;
  d[0] = MYPROC + 0.25;
  e[0] = MYPROC - 0.5;
  all_gather(v);
  all_concat(c);
  all_gather_d(d);
  all_concat_d(e);
  for (j = 0; j < PROCS; j++) {
    if (MYPROC == 0 && (v[j] != 3 * j + 1 || d[j] != j + 0.25)) bad++;
    if (c[j] != 5 * j + 2 || e[j] != j - 0.5) bad++;
  }
  if (own_calls != 1) bad++;
  bad = all_reduce_to_all_add(bad);
  on_one printf(bad ? "FAIL gathers\n" : "PASS gathers\n");
  return bad;
}
