/* gather.sc: the program's own all_gather_d, as programs defined the later
 * releases' gathers on the machines whose library lacked them: it must win
 * over the library's. It counts its calls, so the test sees whose ran. */
#include <split-c/split-c.h>
#include "era.h"

int own_gather_calls;

void all_gather_d(val)
     double *val;
{
  double *spread slots;
  int j;

  own_gather_calls++;
  slots = all_spread_malloc(PROCS, sizeof(double));
  *(double *)tolocal(slots[MYPROC]) = val[0];
  barrier();
  on_one {
    for (j = 0; j < PROCS; j++) val[j] = slots[j];
  }
  barrier();
  all_spread_free(slots);
}
