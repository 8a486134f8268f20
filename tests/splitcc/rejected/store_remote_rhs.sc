/* expect: store_remote_rhs.sc:6:9: error: the right-hand side of a signalling store ':-' must be local */
#include <split-c/split-c.h>
int splitc_main(int argc, char **argv)
{
  int x, *global g = &x, *global h = &x;
  *g :- *h + 1;
  return 0;
}
