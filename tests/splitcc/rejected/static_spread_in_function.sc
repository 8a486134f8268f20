/* expect: static_spread_in_function.sc:5:17: error: a static spread array inside a function is not supported */
#include <split-c/split-c.h>
int splitc_main(int argc, char **argv)
{
  static double work[8]::;
  return 0;
}
