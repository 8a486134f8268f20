/* The Libsplit-C report's pointer-operation costs (section 5.4, Figure 19,
 * "Table 7" in the issue) measured on Split-C translated by splitcc against
 * the same loops written by hand in C on splitc.h (ptrops_hand.c), in the
 * same run: a local read through a global pointer, Sptr[i], Sptr++,
 * for_my_1d and for_my_2D. Each pair runs ROUNDS times, alternating, the
 * version that goes first changing every round; printed per operation: the
 * medians (ns per operation), their ratio, and the median and range of the
 * rounds' own ratios (each round's two loops ran back to back, so a round's
 * ratio is the figure least moved by the machine's changes of speed). Both
 * versions must compute the same checksums (the test checks that, never the
 * times).
 *   ptrops [iterations] [rounds] */
#include <split-c/split-c.h>
#include <stdio.h>
#include <stdlib.h>

#define LOCAL_N 4096
int local_data[LOCAL_N];
int A[1 << 16]::;

/* The hand-written versions (ptrops_hand.c). */
long hand_global_read(int *data, int n, long reps);
long hand_spread_index(int n, long reps);
long hand_spread_increment(int n, long reps);
long hand_for_my_1d(int n, long reps);
long hand_for_my_2d(int n, int m, long reps);
void hand_set_array(void *global a); /* A, for the hand-written loops */

long sc_global_read(int *data, int n, long reps)
{
  int *global g = (int *global)data;
  long s = 0, r;
  int i;
  for (r = 0; r < reps; r++)
    for (i = 0; i < n; i++) s += g[i];
  return s;
}

long sc_spread_index(int n, long reps)
{
  long s = 0, r;
  int i;
  for (r = 0; r < reps; r++)
    for (i = 0; i < n; i++) s += toproc(&A[i]);
  return s;
}

long sc_spread_increment(int n, long reps)
{
  long s = 0, r;
  int i;
  int *spread p;
  for (r = 0; r < reps; r++)
    for (i = 0, p = A; i < n; i++, p++) s += toproc(p);
  return s;
}

long sc_for_my_1d(int n, long reps)
{
  long s = 0, r;
  int i;
  for (r = 0; r < reps; r++)
    for_my_1d(i, n) s += i;
  return s;
}

long sc_for_my_2d(int n, int m, long reps)
{
  long s = 0, r;
  int i, j, l;
  for (r = 0; r < reps; r++)
    for_my_2D(i, j, l, n, m) s += i ^ j;
  return s;
}

/* Operation `op`, in Split-C (hand = 0) or hand-written C (hand = 1). */
static long run(int op, int hand, int n, long reps)
{
  switch (op) {
    case 0: return hand ? hand_global_read(local_data, n, reps) : sc_global_read(local_data, n, reps);
    case 1: return hand ? hand_spread_index(n, reps) : sc_spread_index(n, reps);
    case 2: return hand ? hand_spread_increment(n, reps) : sc_spread_increment(n, reps);
    case 3: return hand ? hand_for_my_1d(n * PROCS, reps) : sc_for_my_1d(n * PROCS, reps);
    default: return hand ? hand_for_my_2d(n, PROCS, reps) : sc_for_my_2d(n, PROCS, reps);
  }
}

static int compare(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int splitc_main(int argc, char **argv)
{
  long ops = argc > 1 ? atol(argv[1]) : 1 << 22;
  int rounds = argc > 2 ? atoi(argv[2]) : 7;
  const char *names[5] = {"*gp (local)", "Sptr[i]", "Sptr++", "for_my_1d", "for_my_2D"};
  double t_sc[5][64], t_hand[5][64], ratio[5][64];
  int op, k, bad = 0;
  if (rounds > 64) rounds = 64;
  for (k = 0; k < LOCAL_N; k++) local_data[k] = k % 17;
  hand_set_array(A);
  for (k = 0; k < rounds; k++)
    for (op = 0; op < 5; op++) {
      long reps, a = 0, b = 0;
      int n = op == 0 ? LOCAL_N : op == 4 ? 256 : 1 << 16; /* operations per repetition */
      double t0, t1, t2, first, second;
      int hand_first = k % 2;
      reps = ops / n + 1;
      t0 = get_seconds();
      a = run(op, hand_first, n, reps);
      t1 = get_seconds();
      b = run(op, !hand_first, n, reps);
      t2 = get_seconds();
      if (a != b) bad++;
      first = (t1 - t0) * 1e9 / ((double)reps * n);
      second = (t2 - t1) * 1e9 / ((double)reps * n);
      t_sc[op][k] = hand_first ? second : first;
      t_hand[op][k] = hand_first ? first : second;
      ratio[op][k] = t_sc[op][k] / t_hand[op][k];
    }
  on_one {
    printf("pointer operations, ns per operation (median of %d rounds, P = %d)\n", rounds, PROCS);
    printf("%-12s %10s %10s %8s   %s\n", "operation", "splitcc", "hand C", "ratio",
           "rounds' ratios: median [min..max]");
    for (op = 0; op < 5; op++) {
      double s, h;
      qsort(t_sc[op], rounds, sizeof(double), compare);
      qsort(t_hand[op], rounds, sizeof(double), compare);
      qsort(ratio[op], rounds, sizeof(double), compare);
      s = t_sc[op][rounds / 2];
      h = t_hand[op][rounds / 2];
      printf("%-12s %10.3f %10.3f %8.3f   %.3f [%.3f..%.3f]\n", names[op], s, h, s / h,
             ratio[op][rounds / 2], ratio[op][0], ratio[op][rounds - 1]);
    }
  }
  bad = all_reduce_to_all_add(bad);
  on_one { printf(bad ? "FAIL ptrops (checksums differ)\n" : "PASS ptrops\n"); }
  return bad != 0;
}
