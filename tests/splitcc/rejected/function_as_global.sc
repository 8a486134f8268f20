/* expect: function_as_global.sc:9:19: error: function 'report' cannot be converted to the global pointer type 'int \*global' */
/* A function where a global pointer is expected: Clang 14 crashed diagnosing it (issue 45). */
#include <split-c/split-c.h>
#include <stdio.h>
void report(void) { printf("done\n"); }
int splitc_main(int argc, char **argv)
{
  int x = 0;
  int *global p = report;
  *p = x;
  return 0;
}
