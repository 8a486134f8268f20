/* util.sc: the functions behind dialect.h, and gnu89's file-scope inline. */
#include <split-c/split-c.h>
#include "dialect.h"

int square(int x) { return x * x; }
int owner(int i) { return i % PROCS; }

static int bumps;                   /* a static used in an inline function: fine in gnu89 */
inline int bump(n)                  /* gnu89: an external definition, called from main.sc */
     int n;
{
  bumps += n;
  ticks = bumps;
  return bumps;
}
