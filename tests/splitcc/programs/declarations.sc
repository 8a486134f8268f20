/* Declarations that carry global pointers in every position C allows:
 * file scope with and without an initializer (NULL; a local address,
 * assigned at start-up), a struct defined in the
 * declaration of a global pointer to it, functions taking and returning
 * global pointers (prototyped and K&R), a function pointer type, a pointer
 * to a global pointer, and lists mixing global and local declarators. */
#include <split-c/split-c.h>
#include <stdio.h>

int *global g0;
int *global g1 = NULL;
int cell = 42;
int *global g2 = &cell;              /* initialized at start-up */
typedef struct { int a; double b; } anon;
struct tagged { int a; } *global tp;
int *global advance(int *global p, int n) { return p + n; }
int *global back(p, n)
     int *global p;
     int n;
{
  return p - n;
}
int (*pick)(int *global, int);
static int first(int *global p, int n) { return p[n]; }

int splitc_main(int argc, char **argv)
{
  anon v, *global av = &v;
  int arr[4], *global ga = arr, plain = 7, *global gb = &plain;
  int *global *lp = &ga;
  struct tagged t;
  int bad = 0;
  v.a = 1;
  av->b = 2.5;
  (*lp)[1] = 5;
  **lp = 4;
  arr[2] = 9;
  t.a = 11;
  tp = &t;
  pick = first;
  if (av->a != 1 || v.b != 2.5 || arr[1] != 5 || arr[0] != 4 || *gb != 7) bad++;
  if (g0 != NULL || g1 != NULL || advance(g1, 0) != NULL) bad++;
  if (*advance(ga, 2) != 9 || back(advance(ga, 3), 2)[0] != 5 || pick(ga, 2) != 9) bad++;
  if (tp->a != 11 || toproc(tp) != MYPROC) bad++;
  if (*g2 != 42 || toproc(g2) != MYPROC) bad++;
  bad = all_reduce_to_all_add(bad);
  on_one { printf(bad ? "FAIL declarations (%d)\n" : "PASS declarations\n", bad); }
  return bad != 0;
}
