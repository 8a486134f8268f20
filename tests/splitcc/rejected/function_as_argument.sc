/* expect: function_as_argument.sc:11:12: error: function 'fill' cannot be converted to the global pointer type 'void \*global' */
/* A function passed where the C interface takes a global pointer (issue 45). */
#include <split-c/split-c.h>
static double buf[4];
void fill(void) { buf[0] = 1.0; }
int splitc_main(int argc, char **argv)
{
  double *global there = toglobal(MYPROC, &buf[0]);
  bulk_get(buf, there, sizeof buf);
  bulk_put(there, buf, sizeof buf);
  bulk_put(fill, buf, sizeof buf);
  sync();
  return 0;
}
