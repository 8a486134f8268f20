/* expect: function_by_typo.sc:10:15: error: use of undeclared identifier 'heap'; did you mean 'read'\? */
/* A misspelt name Clang's typo correction takes for a function (read, from unistd.h), where
   a spread pointer is expected: Clang 14 crashed correcting it (issue 45). K&R, implicit int. */
#include <split-c/split-c.h>
#include <unistd.h>
splitc_main(argc, argv) int argc; char **argv;
{
  int *spread cells = all_spread_malloc(PROCS, sizeof(int));
  all_spread_free(cells);
  spread_free(heap);
  return 0;
}
