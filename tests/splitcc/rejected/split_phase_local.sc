/* expect: split_phase_local.sc:6:5: error: a split-phase assignment ':=' needs a global l-value on one side */
#include <split-c/split-c.h>
int splitc_main(int argc, char **argv)
{
  int x, y = 2;
  x := y;
  return 0;
}
