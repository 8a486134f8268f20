/* on_proc(p) runs its statement on processor p only; on_one on 0. Each
 * processor counts what ran where, and processor 0 checks the sums. */
#include <split-c/control.h>

#define MARK(n) ran += (n)

splitc_main(argc, argv)
     int argc;
     char **argv;
{
  int p, ran = 0, bad = 0;

  for (p = 0; p < PROCS; p++)
    on_proc(p) { MARK(1 << (p % 16)); }
  on_proc(PROCS - 1) MARK(100);
  else MARK(1000);                       /* on_proc is an if: an else follows */
  on_one MARK(10000);
  on_proc(PROCS) MARK(-1);               /* no such processor: runs nowhere */
  if (ran != (1 << (MYPROC % 16)) + (MYPROC == PROCS - 1 ? 100 : 1000) + (MYPROC == 0 ? 10000 : 0))
    bad = 1;
  bad = all_reduce_to_all_add(bad);
  on_one printf(bad ? "FAIL on_proc\n" : "PASS on_proc\n");
  return bad;
}
