/* expect: pointer_to_integer.sc:6:12: error: a global pointer cannot become an integer */
#include <split-c/split-c.h>
int splitc_main(int argc, char **argv)
{
  int x, *global g = &x;
  long l = (long)g;
  return (int)l;
}
