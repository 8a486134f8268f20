/* Teams from a Split-C program, through splitcc and the C interface (splitc.h): the even and
 * the odd processors as two teams (ranked backwards), their reductions, scans, broadcast and
 * all-gather; a team split again; the rows of a processor grid summing the cells of a matrix
 * in Figure 8's layout that their members own; a split-phase reduction
 * completed on a Counter while the program computes, a split-phase all-gather of unequal
 * blocks, and a histogram reduced and scattered in unequal shares. "PASS teams" from
 * processor 0 when every result equals its value computed here. */
#include <split-c/split-c.h>
#include <stdio.h>
#include <stdlib.h>

static bad = 0;               /* implicit int, as the era wrote it */

/* The sum of k over the processors of one parity: K&R definitions, as the programs of the
 * time were written. */
static parity_sum(parity, procs)
     int parity, procs;
{
  int k, sum = 0;
  for (k = parity; k < procs; k += 2) sum += k;
  return sum;
}
#define CHECK(cond)                                                              \
  do {                                                                           \
    if (!(cond)) {                                                               \
      printf("processor %d: %s:%d: %s\n", MYPROC, __FILE__, __LINE__, #cond);    \
      bad++;                                                                     \
    }                                                                            \
  } while (0)

static void parity_teams(void)
{
  splitc_team_t mine = splitc_team_split(splitc_team_world(), MYPROC % 2, -MYPROC);
  splitc_team_t inner;
  int n = splitc_team_size(mine), r = splitc_team_rank(mine), k, b, me = MYPROC;
  int sum = parity_sum(MYPROC % 2, PROCS);
  int *all;
  CHECK(n == (PROCS + 1 - MYPROC % 2) / 2);
  CHECK(team_reduce_to_all_add(mine, MYPROC) == sum);
  CHECK(team_reduce_to_all_max(mine, MYPROC) == splitc_team_proc(mine, 0));
  CHECK(team_scan_add(mine, 1) == r + 1);
  b = r == 0 ? 4321 : 0;
  team_bcast(mine, &b, sizeof b, 0);
  CHECK(b == 4321);
  all = (int *)malloc(n * sizeof(int));
  team_all_gather(mine, &me, all, sizeof(int));
  for (k = 0; k < n; k++) CHECK(all[k] == splitc_team_proc(mine, k));
  free(all);
  /* split again: the first member alone, the rest together */
  inner = splitc_team_split(mine, r == 0, r);
  CHECK(team_reduce_to_all_add(inner, 1) == (r == 0 ? 1 : n - 1));
  splitc_team_free(inner);
  splitc_team_free(mine);
}

/* int M[2r][3c]::[1][1] over an r x c grid of processors (r * c == PROCS), Figure 8's
 * layout: cell (x, y) is on processor (x mod r) * c + y mod c, so a grid row's members own
 * exactly the cells of the rows x with x mod r == their grid row. */
static void grid_rows(void)
{
  int r = 1, c, d, x, y;
  long long mine = 0, expect = 0;
  splitc_team_t row;
  for (d = 1; d * d <= PROCS; d++)
    if (PROCS % d == 0) r = d;
  c = PROCS / r;
  for (x = 0; x < 2 * r; x++)
    for (y = 0; y < 3 * c; y++) {
      if ((x % r) * c + y % c == MYPROC) mine += 100 * x + y;
      if (x % r == MYPROC / c) expect += 100 * x + y;
    }
  row = splitc_team_grid_row(r, c);
  CHECK(splitc_team_size(row) == c);
  CHECK(splitc_team_rank(row) == MYPROC % c);
  CHECK(team_reduce_to_all_lladd(row, mine) == expect);
  splitc_team_free(row);
}

/* A split-phase all-gather of unequal blocks: processor k gives k + 1 ints, each its number
 * (the counts in bytes, built by the macro the way programs of the time built their tables). */
#define NAME_BYTES(k) (((k) + 1) * (int)sizeof(int))
static void gathered_names()
{
  Counter done = SPLITC_COUNTER_INIT;
  int *counts = (int *)malloc(PROCS * sizeof(int)), *all, *mine, k, j, at = 0;
  for (k = 0; k < PROCS; k++) counts[k] = NAME_BYTES(k), at += k + 1;
  all = (int *)malloc(at * sizeof(int));
  mine = (int *)malloc(NAME_BYTES(MYPROC));
  for (j = 0; j <= MYPROC; j++) mine[j] = MYPROC;
  team_all_gatherv_ctr(splitc_team_world(), mine, NAME_BYTES(MYPROC), all, counts, &done);
  counts[0] = -1; /* the counts were copied at the call */
  sync_ctr(&done);
  for (at = 0, k = 0; k < PROCS; k++)
    for (j = 0; j <= k; j++) CHECK(all[at++] == k);
  free(all);
  free(mine);
  free(counts);
}

/* A histogram reduced and scattered unevenly (team_reduce_scatterv_add): processor k keeps
 * BINS_OF(k) of the bins; every processor counts 1 in each bin and its number in bin 0. */
#define BINS_OF(k) ((k) + 1)
static void histogram_shares()
{
  int *counts = (int *)malloc(PROCS * sizeof(int)), *bins, *kept, k, total = 0, first = 0;
  for (k = 0; k < PROCS; k++) {
    counts[k] = BINS_OF(k);
    if (k < MYPROC) first += counts[k];
    total += counts[k];
  }
  bins = (int *)malloc(total * sizeof(int));
  kept = (int *)malloc(BINS_OF(MYPROC) * sizeof(int));
  for (k = 0; k < total; k++) bins[k] = k == 0 ? MYPROC : 1;
  team_reduce_scatterv_add(splitc_team_world(), bins, kept, counts);
  for (k = 0; k < BINS_OF(MYPROC); k++)
    CHECK(kept[k] == (first + k == 0 ? PROCS * (PROCS - 1) / 2 : PROCS));
  free(kept);
  free(bins);
  free(counts);
}

static void split_phase(void)
{
  Counter done = SPLITC_COUNTER_INIT;
  double v[100], w = 0.0;
  int k;
  for (k = 0; k < 100; k++) v[k] = MYPROC + k;
  team_reduce_to_all_dadd_v_ctr(splitc_team_world(), v, 100, &done);
  for (k = 0; k < 1000; k++) {
    w += k * 0.5;
    if (k % 100 == 0) splitc_poll();
  }
  sync_ctr(&done);
  for (k = 0; k < 100; k++) CHECK(v[k] == PROCS * (PROCS - 1) / 2.0 + (double)PROCS * k);
  CHECK(w > 0);
  gathered_names();
  histogram_shares();
}

splitc_main(argc, argv)
     int argc;
     char **argv;
{
  (void)argc;
  (void)argv;
  parity_teams();
  grid_rows();
  split_phase();
  bad = all_reduce_to_all_add(bad);
  on_one { printf(bad ? "FAIL teams\n" : "PASS teams\n"); }
  return bad != 0;
}
