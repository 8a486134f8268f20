/* The loops of ptrops.sc written by hand in C on the C interface (splitc.h),
 * as a programmer without splitcc would: the baseline of the comparison. */
#include <splitc.h>

static __globPtrType spread_array;

void hand_set_array(__globPtrType a) { spread_array = a; }

long hand_global_read(int *data, int n, long reps) {
  __globPtrType g = toglobal(splitc_myproc(), data);
  long s = 0;
  for (long r = 0; r < reps; r++)
    for (int i = 0; i < n; i++) s += __i_read(splitc_global_add(g, i, sizeof(int)));
  return s;
}

long hand_spread_index(int n, long reps) {
  long s = 0;
  for (long r = 0; r < reps; r++)
    for (int i = 0; i < n; i++) s += toproc(splitc_spread_add(spread_array, i, sizeof(int)));
  return s;
}

long hand_spread_increment(int n, long reps) {
  long s = 0;
  for (long r = 0; r < reps; r++) {
    __globPtrType p = spread_array;
    for (int i = 0; i < n; i++, p = splitc_spread_add(p, 1, sizeof(int))) s += toproc(p);
  }
  return s;
}

long hand_for_my_1d(int n, long reps) {
  long s = 0;
  for (long r = 0; r < reps; r++)
    for (int i = splitc_myproc(); i < n; i += splitc_procs()) s += i;
  return s;
}

long hand_for_my_2d(int n, int m, long reps) {
  long s = 0;
  for (long r = 0; r < reps; r++)
    for (int l = splitc_myproc(); l < n * m; l += splitc_procs()) s += (l / m) ^ (l % m);
  return s;
}
