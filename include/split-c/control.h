/* <split-c/control.h>: Split-C's control macros. Unlike splitc.h's
 * for_my_1d (which declares its loop variable), these assign variables the
 * program declared, as Split-C's did, and are plain C89.
 *
 *   for_my_1d(i, n)           i = MYPROC, MYPROC+PROCS, ... below n
 *   for_my_2d(i, j, n, m)     the (i, j) of an n x m spread index space
 *                             (row-major, cyclic) that MYPROC owns
 *   for_my_2D(i, j, l, n, m)  the same, l the linear index i*m + j
 *   on_one { ... }            the block runs on processor 0 only
 *   on_proc(p) { ... }        the block runs on processor p only */
#ifndef SPLIT_C_CONTROL_H
#define SPLIT_C_CONTROL_H

#include <split-c/split-c.h>

#define for_my_1d(i, n) for ((i) = MYPROC; (i) < (n); (i) += PROCS)

#define for_my_2d(i, j, n, m)                                                   \
  for ((i) = (m) > 0 ? MYPROC / (m) : (n), (j) = (m) > 0 ? MYPROC % (m) : 0;    \
       (i) < (n); (j) += PROCS, (i) += (j) / (m), (j) %= (m))

#define for_my_2D(i, j, l, n, m)                                                \
  for ((l) = MYPROC; (l) < (n) * (m) && ((i) = (l) / (m), (j) = (l) % (m), 1);  \
       (l) += PROCS)

#define on_one if (MYPROC == 0)
#define on_proc(p) if (MYPROC == (p))

#endif /* SPLIT_C_CONTROL_H */
