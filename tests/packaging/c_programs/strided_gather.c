/* Strided and indexed transfers in C, as a C user builds them (cc + pkg-config): an N x N
 * matrix of doubles dealt out by rows (row i on processor i mod PROCS). Each processor reads
 * one column of it as an element list (a gather: one message per owner) and again as one
 * strided get per owner, then writes it back, changed, into a second matrix with strided
 * puts, and again with element stores counted by all_store_sync. Every element is a function
 * of its place and is checked. */
#include "own_main.h"
#include "report.h"

#include <stdlib.h>

enum { N = 24 };

static double element(int i, int j, int round) { return i * 1000.0 + j + round * 0.25; }

int splitc_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  /* rows[r] of processor p holds matrix row r*PROCS + p (rows_here of them) */
  const int rows_here = (N + PROCS - 1) / PROCS;
  const __globPtrType m = all_spread_malloc(PROCS, (int)(2 * rows_here * N * sizeof(double)));
  double *mine = (double *)tolocal(m); /* the same address on every processor */
  for (int r = 0; r < rows_here; ++r)
    for (int j = 0; j < N; ++j) mine[r * N + j] = element(r * PROCS + MYPROC, j, 1);
  barrier();

  /* 1. column c = MYPROC % N gathered from every row: an element list */
  const int c = MYPROC % N;
  __globPtrType *from = malloc(N * sizeof *from);
  double column[N];
  for (int i = 0; i < N; ++i) from[i] = toglobal(i % PROCS, &mine[(i / PROCS) * N + c]);
  bulk_get_elements(column, from, N, sizeof(double));
  splitc_sync();
  for (int i = 0; i < N; ++i) CHECK(column[i] == element(i, c, 1));

  /* 2. the same column by strided gets, one per owner: rows_here elements a row apart */
  double again[N];
  Counter ctr = SPLITC_COUNTER_INIT;
  for (int p = 0; p < PROCS && p < N; ++p) {
    const size_t counts[1] = {(size_t)((N - p + PROCS - 1) / PROCS)};
    const ptrdiff_t remote[1] = {N * (ptrdiff_t)sizeof(double)};
    const ptrdiff_t local[1] = {PROCS * (ptrdiff_t)sizeof(double)};
    bulk_get_strided_ctr(&again[p], local, toglobal(p, &mine[c]), remote, counts, 1,
                         sizeof(double), &ctr);
  }
  sync_ctr(&ctr);
  for (int i = 0; i < N; ++i) CHECK(again[i] == element(i, c, 1));
  barrier();

  /* 3. the column plus one, put back into the same column of the second matrix with one
   *    strided put per owner; then plus two, as element stores counted by all_store_sync */
  double *second = mine + rows_here * N;
  for (int k = 0; k < rows_here * N; ++k) second[k] = -1;
  barrier();
  double plus[N];
  for (int i = 0; i < N; ++i) plus[i] = column[i] + 1;
  for (int p = 0; p < PROCS && p < N; ++p) {
    const size_t counts[1] = {(size_t)((N - p + PROCS - 1) / PROCS)};
    const ptrdiff_t remote[1] = {N * (ptrdiff_t)sizeof(double)};
    const ptrdiff_t local[1] = {PROCS * (ptrdiff_t)sizeof(double)};
    bulk_put_strided(toglobal(p, &second[c]), remote, &plus[p], local, counts, 1, sizeof(double));
  }
  splitc_sync();
  barrier();
  /* column j of the second matrix was written by the processors whose column is j */
  for (int r = 0; r * PROCS + MYPROC < N; ++r)
    for (int j = 0; j < N; ++j)
      CHECK(second[r * N + j] == (j < PROCS ? element(r * PROCS + MYPROC, j, 1) + 1 : -1));
  barrier();
  for (int i = 0; i < N; ++i) {
    plus[i] = column[i] + 2;
    from[i] = toglobal(i % PROCS, &second[(i / PROCS) * N + c]);
  }
  bulk_store_elements(from, plus, N, sizeof(double));
  all_store_sync();
  for (int r = 0; r * PROCS + MYPROC < N; ++r)
    for (int j = 0; j < N && j < PROCS; ++j)
      CHECK(second[r * N + j] == element(r * PROCS + MYPROC, j, 1) + 2);
  barrier();
  free(from);
  all_spread_free(m);
  return report("strided_gather");
}
