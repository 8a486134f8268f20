/* Spread arrays and global reductions in C, after the Split-C paper (§7:
 * spread arrays, the for_my_1d owner-computes loop, Figure 8's blocked-cyclic
 * layout) and Libsplit-C's all_reduce / all_scan calls. Every value is an
 * integer function of its index, so every result is checked exactly. */
#include "own_main.h"
#include "report.h"

#include <stdlib.h>

enum { N = 1000, B = 7, ROWS = 8, COLS = 9 };

/* int A[N]:: — cyclic; the sum of A[i] = i, read by owners and by one reader. */
static void cyclic_sum(void) {
  const __globPtrType A = all_spread_malloc(N, (int)sizeof(int));
  CHECK(A.addr != NULL);
  for_my_1d(i, N) {
    const __globPtrType e = splitc_spread_element(A, splitc_place_cyclic(i), 1, sizeof(int));
    CHECK(e.proc == MYPROC);
    *(int *)tolocal(e) = (int)i; /* owner computes: a local store */
  }
  barrier();
  long long mine = 0;
  for_my_1d(i, N) mine += __i_read(splitc_spread_index(A, (long)i, sizeof(int)));
  CHECK(all_reduce_to_all_lladd(mine) == (long long)N * (N - 1) / 2);
  const long long at_zero = all_reduce_to_one_lladd(mine);
  if (MYPROC == 0) {
    CHECK(at_zero == (long long)N * (N - 1) / 2);
    long long all = 0; /* every element through a spread pointer, remote ones too */
    __globPtrType p = A;
    for (int i = 0; i < N; ++i, p = splitc_spread_add(p, 1, sizeof(int))) all += __i_read(p);
    CHECK(all == (long long)N * (N - 1) / 2);
    CHECK(splitc_spread_diff(p, A, sizeof(int)) == N);
  }
  barrier();
  all_spread_free(A);
}

/* double F[3*PROCS]::[B] — block-cyclic; everyone gets every element. */
static void block_cyclic_sum(void) {
  const size_t blocks = 3 * (size_t)PROCS, n = blocks * B;
  const __globPtrType F = all_spread_malloc((int)blocks, B * (int)sizeof(double));
  CHECK(F.addr != NULL);
  for_my_1d(k, blocks) {
    for (size_t b = 0; b < B; ++b) {
      const size_t x = k * B + b;
      const __globPtrType e =
          splitc_spread_element(F, splitc_place_block_cyclic(x, B), B, sizeof(double));
      CHECK(e.proc == MYPROC);
      *(double *)tolocal(e) = (double)x;
    }
  }
  barrier();
  double *got = malloc(n * sizeof *got);
  for (size_t x = 0; x < n; ++x)
    __d_get(&got[x], splitc_spread_element(F, splitc_place_block_cyclic(x, B), B, sizeof(double)));
  splitc_sync(); /* the gets are split-phase */
  double sum = 0;
  for (size_t x = 0; x < n; ++x) {
    CHECK(got[x] == (double)x);
    sum += got[x];
  }
  CHECK(sum == (double)n * (double)(n - 1) / 2);
  CHECK(all_reduce_to_all_dmax(sum) == sum && all_reduce_to_all_dmin(sum) == sum);
  free(got);
  barrier();
  all_spread_free(F);
}

/* int M[ROWS][COLS] in Figure 8's layout (r = 4, c = 3, 1 x 1 blocks):
 * owners write (x, y) -> 100x + y, processor 0 checks every cell. */
static void blocked_cyclic_2d(void) {
  const splitc_layout_2d_t l = {ROWS, COLS, 4, 3, 1, 1};
  const size_t blocks = splitc_layout_2d_blocks(&l);
  const __globPtrType M = all_spread_malloc((int)blocks, (int)sizeof(int));
  int owned = 0;
  for_my_1d(k, blocks) {
    size_t bi, bj;
    splitc_layout_2d_block_coords(&l, k, &bi, &bj);
    const __globPtrType e =
        splitc_spread_element(M, splitc_place_blocked_cyclic_2d(&l, bi, bj), 1, sizeof(int));
    CHECK(e.proc == MYPROC);
    __i_write(e, (int)(100 * bi + bj));
    ++owned;
  }
  CHECK(all_reduce_to_all_add(owned) == ROWS * COLS);
  barrier();
  if (MYPROC == 0) {
    for (size_t x = 0; x < ROWS; ++x)
      for (size_t y = 0; y < COLS; ++y) {
        const __globPtrType e =
            splitc_spread_element(M, splitc_place_blocked_cyclic_2d(&l, x, y), 1, sizeof(int));
        CHECK(__i_read(e) == (int)(100 * x + y));
        /* Figure 8: block (x, y) is on processor (x mod 4) * 3 + y mod 3 of 12; with
           PROCS dividing 12 (1, 2, 3, 4, 6), on that number modulo PROCS */
        CHECK(e.proc == (int)(((x % 4) * 3 + y % 3) % (size_t)PROCS));
      }
  }
  barrier();
  all_spread_free(M);
}

/* The same layout on an r x c processor grid with r * c = PROCS: the row and column teams
 * (splitc_team_grid_row/column) sum the cells their members own; every grid row's sum is
 * checked against the sequential one. */
static void grid_teams(void) {
  int r = 1;
  for (int d = 1; d * d <= PROCS; ++d)
    if (PROCS % d == 0) r = d;
  const int c = PROCS / r, me = MYPROC;
  const splitc_layout_2d_t l = {(size_t)(2 * r), (size_t)(3 * c), (size_t)r, (size_t)c, 1, 1};
  const size_t blocks = splitc_layout_2d_blocks(&l);
  long long mine = 0;
  for_my_1d(k, blocks) {
    size_t bi, bj;
    splitc_layout_2d_block_coords(&l, k, &bi, &bj);
    mine += (long long)(100 * bi + bj);
  }
  splitc_team_t row = splitc_team_grid_row(r, c), column = splitc_team_grid_column(r, c);
  CHECK(splitc_team_size(row) == c && splitc_team_size(column) == r);
  long long expect_row = 0, expect_all = 0;
  for (size_t x = 0; x < l.n; ++x)
    for (size_t y = 0; y < l.m; ++y) {
      if ((int)(x % (size_t)r) == me / c) expect_row += (long long)(100 * x + y);
      expect_all += (long long)(100 * x + y);
    }
  CHECK(team_reduce_to_all_lladd(row, mine) == expect_row);
  /* the column team then sums the row sums: the whole matrix */
  CHECK(team_reduce_to_all_lladd(column, team_reduce_to_all_lladd(row, mine)) == expect_all);
  long long sums[64];
  team_all_gather(column, &mine, sums, (int)sizeof mine);
  CHECK(sums[splitc_team_rank(column)] == mine);
  splitc_team_free(row);
  splitc_team_free(column);
}

/* for_my_2d over an n x m index space: every pair exactly once, job-wide. */
static void owner_loops(void) {
  long long pairs = 0, weight = 0;
  for_my_2d(i, j, 5, 7) {
    ++pairs;
    weight += (long long)(i * 7 + j);
  }
  CHECK(all_reduce_to_all_lladd(pairs) == 35);
  CHECK(all_reduce_to_all_lladd(weight) == 35 * 34 / 2);
  CHECK(all_scan_add(MYPROC + 1) == (MYPROC + 1) * (MYPROC + 2) / 2);
  CHECK(all_bcast(MYPROC == 0 ? 4242 : -1) == 4242);
}

int splitc_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  cyclic_sum();
  block_cyclic_sum();
  blocked_cyclic_2d();
  grid_teams();
  owner_loops();
  return report("spread_sum");
}
