/* expect: function_as_argument.sc:11:12: error: function 'fill' cannot be converted to the global pointer type 'void \*global' */
/* A function passed, through the program's own macro, where the C interface takes a global pointer (issue 45). */
#include <split-c/split-c.h>
#define PUT_ALL(to, from) bulk_put(to, from, sizeof from)
static double buf[4];
fill() { buf[0] = 1.0; }
splitc_main(argc, argv) int argc; char **argv;
{
  double *global there = toglobal(MYPROC, &buf[0]);
  PUT_ALL(there, buf);
  PUT_ALL(fill, buf);
  sync();
  return 0;
}
