/* The program's own all_gather_d, as programs carried for the machines
 * whose library lacked it: it is the one that runs. */
#include <split-c/split-c.h>

int own_calls;

all_gather_d(val)
     double *val;
{
  double *spread slot = all_spread_malloc(PROCS, sizeof(double));
  int j;

  own_calls++;
  slot[MYPROC] = val[0];
  barrier();
  on_one for (j = 0; j < PROCS; j++) val[j] = slot[j];
  barrier();
  all_spread_free(slot);
}
