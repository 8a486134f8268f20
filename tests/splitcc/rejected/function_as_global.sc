/* expect: function_as_global.sc:9:19: error: function 'report' cannot be converted to the global pointer type 'int \*global' */
/* A function where a global pointer is expected, K&R as the era wrote it: Clang 14 crashed (issue 45). */
#include <split-c/split-c.h>
#include <stdio.h>
report() { printf("done\n"); }
splitc_main(argc, argv) int argc; char **argv;
{
  int x = 0;
  int *global p = report;
  *p = x;
  return 0;
}
