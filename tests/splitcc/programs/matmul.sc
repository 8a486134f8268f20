/* Blocked matrix multiply (the language paper's Program 7): C = A x B on
 * spread arrays of b x b blocks passed as parameters with variable
 * dimensions, the owner of each block of C computing it with bulk_get of
 * the blocks of A and B and a local multiply through tolocal. Checked
 * against the product computed locally. Processor 0 also prints one "result"
 * line per processor and product (a digest of its blocks of C), which the
 * test splitcc.compare.matmul.* checks against the C++ reference,
 * tests/splitcc/reference/matmul_ref.cpp. */
#include <split-c/split-c.h>
#include <stdio.h>

#include "result_digest.h"

static void matrix_mult(int n, int m, int r, double (*c)[m], double (*a)[r], double (*b)[m])
{
  int i, j, k;
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      for (k = 0; k < r; k++) c[i][j] += a[i][k] * b[k][j];
}

void all_mat_mult_blk(int n, int r, int m, int b,
                      double C[n][m]::[b][b],
                      double A[n][r]::[b][b],
                      double B[r][m]::[b][b])
{
  int i, j, k, l;
  double la[b][b], lb[b][b]; /* local copies of blocks */

  for_my_2D(i, j, l, n, m) {
    double (*lc)[b] = tolocal(C[i][j]);
    for (k = 0; k < r; k++) {
      bulk_get(la, A[i][k], b * b * sizeof(double));
      bulk_get(lb, B[k][j], b * b * sizeof(double));
      sync(); /* the paper's listing omits it: a get completes at sync() */
      matrix_mult(b, b, b, lc, la, lb);
    }
  }
  barrier();
}

static double a_value(int row, int col) { return (row * 7 + col * 3) % 11 - 5; }
static double b_value(int row, int col) { return (row * 5 + col * 2) % 13 - 6; }

static int all_run(int n, int r, int m, int b)
{
  double A[n][r]::[b][b];
  double B[r][m]::[b][b];
  double C[n][m]::[b][b];
  char prefix[64];
  int i, j, x, y, k, l, bad = 0;

  for_my_2D(i, j, l, n, r)
    for (x = 0; x < b; x++)
      for (y = 0; y < b; y++) A[i][j][x][y] = a_value(i * b + x, j * b + y);
  for_my_2D(i, j, l, r, m)
    for (x = 0; x < b; x++)
      for (y = 0; y < b; y++) B[i][j][x][y] = b_value(i * b + x, j * b + y);
  for_my_2D(i, j, l, n, m)
    for (x = 0; x < b; x++)
      for (y = 0; y < b; y++) C[i][j][x][y] = 0;
  barrier();

  all_mat_mult_blk(n, r, m, b, C, A, B);

  /* Every processor checks the rows it owns blocks of, reading C remotely. */
  for_my_1d(i, n)
    for (j = 0; j < m; j++)
      for (x = 0; x < b; x++)
        for (y = 0; y < b; y++) {
          double want = 0;
          for (k = 0; k < r * b; k++) want += a_value(i * b + x, k) * b_value(k, j * b + y);
          if (C[i][j][x][y] != want) bad++;
        }
  barrier();
  bad = all_reduce_to_all_add(bad);

  /* The digest: this processor's blocks of C in storage order (linear block
   * numbers MYPROC, MYPROC + PROCS, ...), each row by row. */
  digest_start();
  for_my_2D(i, j, l, n, m) {
    double (*lc)[b] = tolocal(C[i][j]);
    my_digest.count++;
    for (x = 0; x < b; x++)
      for (y = 0; y < b; y++) digest_value(lc[x][y]);
  }
  snprintf(prefix, sizeof prefix, "result matmul %dx%dx%d/%d", n, r, m, b);
  digest_print(prefix, "blocks");
  return bad;
}

int splitc_main(int argc, char **argv)
{
  int bad = all_run(3, 2, 4, 3) + all_run(PROCS, 1, 2, 4) + all_run(1, 3, 1, 2);
  on_one { printf(bad ? "FAIL matmul (%d)\n" : "PASS matmul\n", bad); }
  return bad != 0;
}
