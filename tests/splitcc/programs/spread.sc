/* Spread arrays and spread pointers (the language paper's section 7):
 * cyclic (A[n]::), blocked (B[PROCS]::[b]), two spread dimensions
 * (M[r][c]::), a spread array on the stack with a size known at run time,
 * a spread array parameter with variable dimensions, spread-pointer
 * arithmetic, comparison and difference, and file-scope pointers
 * initialized with elements of spread arrays (set at start-up). */
#include <split-c/split-c.h>
#include <stdio.h>

#define N 29
#define BLOCK 6
#define ROWS 5
#define COLS 7

int A[N]::;
double B[PROCS]::[BLOCK];
long M[ROWS][COLS]::;

/* Initialized at start-up, after the arrays are allocated: their values
 * are computed, no constants. */
typedef long *spread long_sp;
int *spread a_third = &A[3];
static int *spread a_near_end = A + N - 2;
long_sp m_corner = &M[ROWS - 1][COLS - 1];
double *global b_last = (double *global)&B[PROCS - 1][BLOCK - 1];

static int failures;
static void expect(int ok, const char *what)
{
  if (!ok) {
    printf("processor %d: %s is wrong\n", MYPROC, what);
    failures++;
  }
}

/* A parameter with variable dimensions: n x m spread, b local. */
static long sum_spread(int n, int m, int b, int X[n][m]::[b])
{
  long s = 0;
  int i, j, k;
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      for (k = 0; k < b; k++) s += X[i][j][k];
  return s;
}

static void all_stack_array(int n, int m, int b)
{
  int X[n][m]::[b];
  int i, j, l, k;
  for_my_2D(i, j, l, n, m) {
    int *local = tolocal(X[i][j]);
    expect(toproc(X[i][j]) == MYPROC, "owner of X[i][j]");
    for (k = 0; k < b; k++) local[k] = (i * m + j) * b + k;
  }
  barrier();
  l = n * m * b;
  expect(sum_spread(n, m, b, X) == (long)l * (l - 1) / 2, "sum of a stack spread array");
  barrier();
}

int splitc_main(int argc, char **argv)
{
  int i, j, k;
  int *spread sp;
  int *spread end;
  double *global bp;

  for_my_1d(i, N) {
    expect(toproc(&A[i]) == MYPROC, "owner of A[i]");
    A[i] = 3 * i + 1;
  }
  for_my_1d(i, PROCS)
    for (k = 0; k < BLOCK; k++) B[i][k] = i * 1000 + k;
  for_my_2d(i, j, ROWS, COLS) M[i][j] = i * 100 + j;
  barrier();

  /* Cyclic: element i on processor i mod PROCS; a spread pointer walks it. */
  sp = &A[0];
  end = A + N;
  for (i = 0; sp < end; sp++, i++) {
    expect(toproc(sp) == i % PROCS, "toproc of a spread pointer");
    expect(*sp == 3 * i + 1, "A[i] through a spread pointer");
  }
  expect(i == N, "spread pointer comparison");
  expect(end - &A[3] == N - 3, "spread pointer difference");
  expect(&A[N - 1] != NULL && sp == &A[N], "spread pointer equality");
  sp = A + 5;
  sp += 7;
  expect(sp == &A[12] && *sp == 37, "spread pointer +=");
  --sp;
  expect(*sp == 34 && sp[2] == 40, "spread pointer -- and []");

  /* The file-scope pointers set at start-up. */
  expect(a_third == &A[3] && *a_third == 10 && toproc(a_third) == 3 % PROCS, "int *spread a_third = &A[3]");
  expect(a_near_end == &A[N - 2] && *a_near_end == 3 * (N - 2) + 1, "static int *spread = A + N - 2");
  expect(m_corner == &M[ROWS - 1][COLS - 1] && *m_corner == (ROWS - 1) * 100 + COLS - 1,
         "a typedef'd spread pointer = &M[r][c]");
  expect(toproc(b_last) == PROCS - 1 && *b_last == (PROCS - 1) * 1000 + BLOCK - 1,
         "double *global = (double *global)&B[p][k]");

  /* Blocked: B[p] is processor p's block; indexing inside it is global. */
  for (i = 0; i < PROCS; i++) {
    bp = B[i];
    expect(toproc(bp) == i, "owner of a block");
    for (k = 0; k < BLOCK; k++) expect(bp[k] == i * 1000 + k && B[i][k] == bp[k], "B[i][k]");
    expect(*(bp + BLOCK - 1) == i * 1000 + BLOCK - 1, "global pointer arithmetic in a block");
  }

  /* Two spread dimensions, linearized row-major and wrapped. */
  for (i = 0; i < ROWS; i++)
    for (j = 0; j < COLS; j++) {
      expect(toproc(&M[i][j]) == (i * COLS + j) % PROCS, "owner of M[i][j]");
      expect(M[i][j] == i * 100 + j, "M[i][j]");
    }
  barrier();
  on_one {
    M[ROWS - 1][COLS - 1] += 5;
    M[0][1]++;
  }
  barrier();
  expect(M[ROWS - 1][COLS - 1] == (ROWS - 1) * 100 + COLS - 1 + 5 && M[0][1] == 2, "compound assignment through a spread array");

  all_stack_array(3, PROCS + 1, 4);
  all_stack_array(2, 2, 1);

  failures = all_reduce_to_all_add(failures);
  on_one { printf(failures ? "FAIL spread (%d)\n" : "PASS spread\n", failures); }
  return failures != 0;
}
