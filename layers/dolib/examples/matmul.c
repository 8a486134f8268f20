/* The seed's parallel matrix multiply (ORNL/TM-12744, section 5 and the appendix), in C on
 * DOLIB: C = A * B with A N x M, B M x M, all three global arrays stored by columns
 * (element (i, j) at i + j * nrow, 0-based). A and C are cut into pages of ceil(N/P) rows,
 * one page per block, so the pages of a column wrap over the processors: when P divides N
 * every page a processor needs of A and C is its own (the seed's fast rows of tables 5.1 and
 * 5.2). Each processor owns a block of rows: it gathers its rows of A (asynchronous
 * contiguous gathers, 2P columns at a time), then for each block of B's columns gathers them
 * (one long contiguous gather), multiplies, and scatters its part of C's columns. Prints a
 * row per size in the shape of the seed's tables (maximum over the processors, seconds) and
 * checks C against the formula; "PASS matmul" when every size checks.
 *
 *   splitc-run -n P matmul [N,M ...]      (default: 84,84 85,85 840,12 841,12) */
#include <dolib.h>
#include <splitc.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double a_value(int i, int j) { return 1.0 / (double)(i + j + 1); }
static double b_value(int i, int j, int m) { return (double)(i + 1 + j * m); }

/* One multiply; returns the number of wrong elements of C this processor checked. */
static int multiply(int n, int m) {
  const int me = MYPROC, P = PROCS;
  int isizeA = (n + P - 1) / P;
  const int istrA = me * isizeA;
  const int iendA = istrA + isizeA < n ? istrA + isizeA : n;
  const int nsizeA = iendA > istrA ? iendA - istrA : 0;
  int isizeB = m / P < 8 ? (m / P < 1 ? 1 : m / P) : 8;
  int IA, IB, IC;
  do_declare(&IA, "A(N,M)", n * m, "double precision", isizeA, 1);
  do_declare(&IB, "B(M,M)", m * m, "double precision", m, 1);
  do_declare(&IC, "C(N,M)", n * m, "double precision", isizeA, 1);

  /* Initialise: column j by processor j mod P. */
  double* tmp = malloc(sizeof(double) * (size_t)(n > m ? n : m));
  for (int j = 0; j < m; ++j) {
    if (j % P != me) continue;
    for (int i = 0; i < n; ++i) tmp[i] = a_value(i, j);
    do_bscatter(IA, n, j * n, tmp);
    for (int i = 0; i < m; ++i) tmp[i] = b_value(i, j, m);
    do_bscatter(IB, m, j * m, tmp);
  }
  do_gsync();
  const double tstart = now();

  /* Gather my rows of A, 2P columns at a time. */
  double* Abuf = malloc(sizeof(double) * (size_t)(nsizeA > 0 ? nsizeA : 1) * (size_t)m);
  int* req = malloc(sizeof(int) * (size_t)(2 * P));
  double t0 = now();
  for (int js = 0; js < m; js += 2 * P) {
    int nreq = 0;
    for (int j = js; j < m && j < js + 2 * P; ++j)
      if (nsizeA > 0) req[nreq++] = do_bgather(IA, nsizeA, istrA + j * n, Abuf + (size_t)j * nsizeA);
    for (int r = 0; r < nreq; ++r) do_wait(req[r]);
  }
  double tgatA = now() - t0, tgatB = 0, tscatC = 0, tgemm = 0;

  double* Bbuf = malloc(sizeof(double) * (size_t)m * (size_t)isizeB);
  double* Cbuf = malloc(sizeof(double) * (size_t)(nsizeA > 0 ? nsizeA : 1) * (size_t)isizeB);
  for (int jb = 0; jb < m; jb += isizeB) {
    const int ncols = jb + isizeB < m ? isizeB : m - jb;
    t0 = now();
    do_wait(do_bgather(IB, m * ncols, jb * m, Bbuf));  /* one long contiguous gather */
    tgatB += now() - t0;
    t0 = now();
    for (int jj = 0; jj < ncols; ++jj)
      for (int i = 0; i < nsizeA; ++i) {
        double sum = 0;
        for (int k = 0; k < m; ++k) sum += Abuf[(size_t)k * nsizeA + i] * Bbuf[(size_t)jj * m + k];
        Cbuf[(size_t)jj * nsizeA + i] = sum;
      }
    tgemm += now() - t0;
    t0 = now();
    for (int jj = 0; jj < ncols; ++jj)
      do_bscatter(IC, nsizeA, istrA + (jb + jj) * n, Cbuf + (size_t)jj * nsizeA);
    tscatC += now() - t0;
  }
  do_gsync();
  const double total = now() - tstart;

  tgatA = all_reduce_to_all_dmax(tgatA);
  tgatB = all_reduce_to_all_dmax(tgatB);
  tscatC = all_reduce_to_all_dmax(tscatC);
  tgemm = all_reduce_to_all_dmax(tgemm);
  if (me == 0)
    printf("(%d,%d)\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\n", n, m, tgatA, tgatB, tscatC, tgemm, total);

  /* Check a column of C per processor, gathered with a list. */
  int wrong = 0;
  const int j = (me * 7) % m;
  int* list = malloc(sizeof(int) * (size_t)n);
  double* col = malloc(sizeof(double) * (size_t)n);
  for (int i = 0; i < n; ++i) list[i] = i + j * n;
  do_gather(IC, n, list, col);
  for (int i = 0; i < n; ++i) {
    double want = 0;
    for (int k = 0; k < m; ++k) want += a_value(i, k) * b_value(k, j, m);
    if (fabs(col[i] - want) > 1e-9 * fabs(want)) ++wrong;
  }
  free(list);
  free(col);
  free(tmp);
  free(Abuf);
  free(Bbuf);
  free(Cbuf);
  free(req);
  do_destroy(IA);
  do_destroy(IB);
  do_destroy(IC);
  return wrong;
}

int splitc_main(int argc, char** argv) {
  do_init(MYPROC, PROCS);
  static const char* defaults[] = {"84,84", "85,85", "840,12", "841,12"};
  const int nsizes = argc > 1 ? argc - 1 : 4;
  if (MYPROC == 0) printf("%d processors\n(N,M)\tgathA\tgathB\tscattC\tdgemm\ttotal time\n", PROCS);
  int wrong = 0;
  for (int s = 0; s < nsizes; ++s) {
    int n = 0, m = 0;
    if (sscanf(argc > 1 ? argv[s + 1] : defaults[s], "%d,%d", &n, &m) != 2 || n < 1 || m < 1) {
      if (MYPROC == 0) fprintf(stderr, "matmul: '%s' is not N,M\n", argv[s + 1]);
      return 2;
    }
    wrong += multiply(n, m);
  }
  wrong = all_reduce_to_all_add(wrong);
  if (MYPROC == 0) {
    if (wrong == 0) printf("PASS matmul\n");
    else printf("matmul: %d wrong elements of C\n", wrong);
  }
  return wrong == 0 ? 0 : 1;
}
