/* skipped_barrier.sc: two phases of puts between neighbours; in the second,
 * processor 1 "has nothing to do" and skips the barrier that ends it -- the
 * bug. Its finalize then meets the others' barrier. The job must end with an
 * error that names the cause (a collective mismatch) instead of hanging or
 * exiting 0; the last line below is never printed. */
#include <split-c/split-c.h>
#include "phases.h"

static int cells[NCELLS];

splitc_main(argc, argv)
     int argc;
     char **argv;
{
  int bad;
  fill_cells(toglobal(MYPROC, cells));
  SYNC();
  bad = all_reduce_to_all_add(check_cells(cells));
  if (MYPROC != 1) {            /* phase 2: processor 1 skips it, barrier and all */
    fill_cells(toglobal(MYPROC, cells));
    SYNC();
  }
  if (MYPROC == 0) printf("FAIL skipped_barrier: the job went on (%d bad cells)\n", bad);
}
