/* mpptest's round trip, written again with no mutable static so that it runs on the sim
 * backends (every processor a fiber of one process) -- the seed's Figures 6-8 in the virtual
 * time of the T3D model: SPLITC_SIM_MACHINE=t3d splitc-run --backend t3d_sim -n 2 ./prog.
 * The same method as mpptest 1.0.13 (../shared/reference/message-passing-layers.md): for each
 * size, samples of REPS round trips between ranks 0 and 1 (blocking Send/Recv, or with
 * -async Irecv/Isend/Wait), at most 30 samples, stopping once 3 are within 5 % of the
 * smallest; the time is the smallest sample / REPS / 2 (one way). Rank 0 prints mpptest's
 * rows, "p0 p1 distance size time_us rate_bytes_per_s".
 *
 *   mpi_pingpong [-size START END STRIDE] [-sizelist A,B,...] [-reps N] [-async]
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIZES 256

static double sample(int rank, char *buf, int len, int reps, int async) {
  const int peer = 1 - rank;
  double start;
  int i;
  MPI_Status st;
  MPI_Request req;
  MPI_Barrier(MPI_COMM_WORLD);
  start = MPI_Wtime();
  for (i = 0; i < reps; ++i) {
    if (rank == 0) {
      if (async) {
        MPI_Irecv(buf, len, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req);
        MPI_Send(buf, len, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
        MPI_Wait(&req, &st);
      } else {
        MPI_Send(buf, len, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, len, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &st);
      }
    } else if (rank == 1) {
      if (async) {
        MPI_Irecv(buf, len, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, &st);
      } else {
        MPI_Recv(buf, len, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &st);
      }
      MPI_Send(buf, len, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
    }
  }
  return MPI_Wtime() - start;
}

int main(int argc, char **argv) {
  int sizes[MAX_SIZES], nsizes = 0, reps = 50, async = 0, rank, size, i, s, maxlen = 0;
  char *buf;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "-size") == 0 && i + 3 < argc) {
      int start = atoi(argv[i + 1]), end = atoi(argv[i + 2]), stride = atoi(argv[i + 3]), n;
      if (stride <= 0) stride = 1;
      for (n = start; n <= end && nsizes < MAX_SIZES; n += stride) sizes[nsizes++] = n;
      i += 3;
    } else if (strcmp(argv[i], "-sizelist") == 0 && i + 1 < argc) {
      char *list = argv[++i], *next;
      while (*list != '\0' && nsizes < MAX_SIZES) {
        sizes[nsizes++] = (int)strtol(list, &next, 10);
        list = *next == ',' ? next + 1 : next + strlen(next);
      }
    } else if (strcmp(argv[i], "-reps") == 0 && i + 1 < argc) {
      reps = atoi(argv[++i]);
    } else if (strcmp(argv[i], "-async") == 0) {
      async = 1;
    } else {
      if (rank == 0) fprintf(stderr, "mpi_pingpong: unknown argument %s\n", argv[i]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  if (nsizes == 0)
    for (s = 0; s <= 1024; s += 32) sizes[nsizes++] = s; /* mpptest's default, Fig. 6 */
  if (size < 2 || reps < 1) {
    if (rank == 0) fprintf(stderr, "mpi_pingpong: needs 2 processes and -reps >= 1\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  for (s = 0; s < nsizes; ++s)
    if (sizes[s] > maxlen) maxlen = sizes[s];
  buf = malloc((size_t)maxlen + 1);
  memset(buf, 1, (size_t)maxlen + 1);
  for (s = 0; s < nsizes; ++s) {
    double times[30], best = 1e30;
    int samples, k, close = 0;
    for (samples = 0; samples < 30 && close < 3; ++samples) {
      times[samples] = sample(rank, buf, sizes[s], reps, async);
      /* rank 0's clock decides for all, so that every rank stops after the same sample */
      MPI_Bcast(&times[samples], 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
      if (times[samples] < best) best = times[samples];
      for (close = 0, k = 0; k <= samples; ++k)
        if (times[k] <= best * 1.05) ++close;
    }
    if (rank == 0) {
      const double one_way = best / reps / 2;
      printf("0\t1\t1\t%d\t%f\t%.2f\n", sizes[s], one_way * 1e6,
             one_way > 0 ? sizes[s] / one_way : 0.0);
      fflush(stdout);
    }
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
