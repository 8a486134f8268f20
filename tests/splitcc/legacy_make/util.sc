/* Legacy C in Split-C: K&R definitions, implicit int, register without a type. */
#include <split-c/split-c.h>
#include "common.h"

double scale(x, factor)
     double x;
     int factor;
{
  total_calls++;
  return x * factor;
}

count_global(p, n)
     int *global p;
     int n;
{
  register i, s = 0;
  for (i = 0; i < n; i++) s += p[i];
  return s;
}
