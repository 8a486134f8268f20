/* splitc_main with implicit int and no return: reaching its closing brace
 * returns 0 (as C99's main), so every processor exits 0 and prints. A
 * processor that fell off with a garbage status would end the job. */
#include <split-c/split-c.h>

int spin(n) int n; { int i, s = 0; for (i = 0; i < n; i++) s += i ^ MYPROC; return s; }

splitc_main(argc, argv)
     int argc;
     char **argv;
{
  int s = spin(1000 + 77 * MYPROC);     /* leaves a non-zero value in the return register */
  s = all_reduce_to_all_add(s != 0);
  barrier();
  if (MYPROC == 0 && s == PROCS) printf("PASS no_return\n");
}
