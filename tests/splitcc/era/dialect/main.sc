/* main.sc: calls dialect.h's helpers (not inlined: no -O) and util.sc's
 * bump, which it never declares (implicit int, as the era's programs did). */
#include <split-c/split-c.h>
#include "dialect.h"

splitc_main(argc, argv)
     int argc;
     char **argv;
{
  int bad = 0, i, sum = 0;

  for (i = 0; i < 10; i++) sum += square(i);
  if (sum != 285) bad++;
  if (owner(MYPROC + PROCS) != MYPROC) bad++;
  if (bump(2) != 2 || bump(3) != 5 || ticks != 5) bad++;
  bad = all_reduce_to_all_add(bad);
  on_one printf(bad ? "FAIL dialect\n" : "PASS dialect\n");
  return bad;
}
