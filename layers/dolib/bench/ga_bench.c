/* The Global Arrays side of the DOLIB comparison: NGA_Gather, NGA_Scatter and
 * NGA_Scatter_acc of the same index lists (bench_lists.h) into a one-dimensional double array
 * of n elements, run with mpirun. Prints one CSV line per measurement, the same columns as
 * dolib_bench: impl,op,n,m,locality,cache,rep,seconds (slowest processor). */
#include <ga.h>
#include <macdecls.h>
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_lists.h"

static double slowest(double t) {
  double m = 0;
  MPI_Allreduce(&t, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return m;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  if (argc < 6) {
    if (GA_Nodeid() == 0) fprintf(stderr, "usage: ga_bench N M LOCALITY REPS SEED\n");
    GA_Terminate();
    MPI_Finalize();
    return 2;
  }
  const int n = atoi(argv[1]), m = atoi(argv[2]), locality = atoi(argv[3]);
  const int reps = atoi(argv[4]);
  const unsigned long long seed = strtoull(argv[5], NULL, 10);
  const int me = GA_Nodeid(), procs = GA_Nnodes();
  if (!MA_init(C_DBL, 1000000, 1000000)) GA_Error("MA_init failed", 0);

  int dims[1] = {n};
  int chunk[1] = {-1};
  const int g = NGA_Create(C_DBL, 1, dims, "x", chunk);
  if (!g) GA_Error("NGA_Create failed", n);
  double zero = 0;
  GA_Fill(g, &zero);
  /* Block distribution: processor p holds [p*n/procs, ...) roughly; what bench_lists assumes. */
  int* list = malloc(sizeof(int) * (size_t)m);
  double* v = malloc(sizeof(double) * (size_t)m);
  for (int k = 0; k < m; ++k) v[k] = k;
  double alpha = 1.0;
  for (int rep = 0; rep < reps; ++rep) {
    bench_fill_list(list, m, n, me, procs, locality, seed + (unsigned long long)rep);
    static const char* names[3] = {"gather", "scatter", "axpby"};
    for (int op = 0; op < 3; ++op) {
      GA_Sync();
      double t0 = MPI_Wtime();
      if (op == 0) NGA_Gather_flat(g, v, list, m);
      if (op == 1) NGA_Scatter_flat(g, v, list, m);
      if (op == 2) NGA_Scatter_acc_flat(g, v, list, m, &alpha);
      /* NGA_Gather is complete when it returns; scatters when GA_Sync returns. */
      if (op != 0) GA_Sync();
      double t = slowest(MPI_Wtime() - t0);
      if (me == 0) printf("ga,%s,%d,%d,%d,off,%d,%.9f\n", names[op], n, m, locality, rep, t);
    }
  }
  fflush(stdout);
  GA_Destroy(g);
  free(list);
  free(v);
  GA_Terminate();
  MPI_Finalize();
  return 0;
}
