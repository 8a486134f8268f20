/* tolocal(x) and toproc(x) of an l-value reached through a global or spread
 * pointer mean those of its address, &x (docs/splitcc.md); of a global
 * pointer, its parts, as in the seed. */
#include <split-c/split-c.h>

struct pt { int x; double y; };
typedef struct pt *global pt_gp;

double B[PROCS]::[4];

splitc_main(argc, argv)
     int argc;
     char **argv;
{
  int *spread A;
  struct pt *spread S;
  pt_gp g;
  int p, bad = 0, *a;

  A = all_spread_malloc(PROCS, sizeof(int));
  S = all_spread_malloc(PROCS, sizeof(struct pt));
  a = tolocal(A[MYPROC]);                          /* this processor's element */
  *a = 7 * MYPROC;
  ((struct pt *)tolocal(S[MYPROC]))->x = MYPROC;
  *(int *)tolocal(S[MYPROC].x) += 1;               /* a member's address */
  *(double *)tolocal(B[MYPROC][2]) = MYPROC + 0.5; /* an element of a spread array's block */
  if (tolocal(A[MYPROC]) != tolocal(&A[MYPROC])) bad++;
  g = &S[(MYPROC + 1) % PROCS];
  if (toproc(*g) != (MYPROC + 1) % PROCS || toproc(g->y) != toproc(g)) bad++;
  if (tolocal(g->x) != tolocal(&g->x)) bad++;
  barrier();
  for (p = 0; p < PROCS; p++) {
    if (A[p] != 7 * p || S[p].x != p + 1 || B[p][2] != p + 0.5) bad++;
    if (toproc(A[p]) != p || toproc(S[p]) != p || toproc(B[p][3]) != p) bad++;
    if (toproc(A + p) != p) bad++;                  /* a spread pointer, as the seed's */
  }
  bad = all_reduce_to_all_add(bad);
  on_one printf(bad ? "FAIL tolocal\n" : "PASS tolocal\n");
  barrier();
  all_spread_free(S);
  all_spread_free(A);
  return bad;
}
