/* expect: bitfield.sc:7:13: error: a bit-field cannot be reached through a global pointer */
#include <split-c/split-c.h>
struct flags { int on : 1; int count : 7; };
int splitc_main(int argc, char **argv)
{
  struct flags f, *global g = &f;
  return g->count;
}
