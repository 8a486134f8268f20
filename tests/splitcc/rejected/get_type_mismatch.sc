/* expect: get_type_mismatch.sc:7:5: error: a split-phase get ':=' copies the object: both sides need the same type */
#include <split-c/split-c.h>
int splitc_main(int argc, char **argv)
{
  int i = 1, *global ip = &i;
  double d;
  d := *ip;
  sync();
  return 0;
}
