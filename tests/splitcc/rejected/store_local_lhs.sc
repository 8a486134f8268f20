/* expect: store_local_lhs.sc:6:5: error: the left-hand side of a signalling store ':-' must be a global l-value */
#include <split-c/split-c.h>
int splitc_main(int argc, char **argv)
{
  int x;
  x :- 3;
  return 0;
}
