/* expect: type_error.sc:6:5: error: assigning to 'int \*global' from incompatible type 'double' */
#include <split-c/split-c.h>
int splitc_main(int argc, char **argv)
{
  int *global g;
  g = 3.5;
  return 0;
}
