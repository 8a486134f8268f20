/* The unexpected queue and its cap (SPLITC_SMPI_UNEXPECTED_MAX), at any P >= 2: long messages
 * that arrive before their receives, more of them than the cap takes eagerly, so that those
 * beyond it wait for their receive (a rendezvous). A safe MPI program -- it never needs a
 * blocking send to be buffered -- so it passes with any cap, 0 (every long message a
 * rendezvous) included:
 *   - every rank but 0 starts 24 long sends (64 KiB to 160 KiB, tags 0..23) to rank 0 and a
 *     blocking send of 2 MiB (tag 99) after them; rank 0 first spends a while elsewhere (a
 *     barrier with the others, who reach it only when their Isends are started), then receives
 *     everything in reverse tag order, source by source, and checks every byte;
 *   - an Ssend of a long message to a receive posted late: it completes only once matched;
 *   - the senders' requests all complete (Waitall); a ring of 1 MiB Sendrecvs; last, one
 *     64 MiB message whose receive is posted late.
 * No mutable static: it also runs on the sim. Prints "PASS mpi_unexpected" on rank 0. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MESSAGES 24
#define BIG (2 << 20)

#define CHECK(cond, ...)                                                                \
  do {                                                                                  \
    if (!(cond)) {                                                                      \
      fprintf(stderr, "rank %d: check failed at line %d: %s: ", rank, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                                     \
      fprintf(stderr, "\n");                                                            \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                     \
    }                                                                                   \
  } while (0)

static size_t length_of(int tag) { return (size_t)(64 + 4 * tag) << 10; }

static unsigned char pattern(int source, int tag, size_t i) {
  return (unsigned char)(source * 29 + tag * 11 + i * 7 + (i >> 12));
}

static void fill(unsigned char *p, size_t n, int source, int tag) {
  size_t i;
  for (i = 0; i < n; ++i) p[i] = pattern(source, tag, i);
}

static int verify(const unsigned char *p, size_t n, int source, int tag) {
  size_t i;
  for (i = 0; i < n; ++i)
    if (p[i] != pattern(source, tag, i)) return 0;
  return 1;
}

int main(int argc, char **argv) {
  int rank = -1, size = 0, tag, source, count, done;
  MPI_Status st;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size >= 2, "needs at least 2 processes, has %d", size);

  if (rank != 0) {
    MPI_Request reqs[MESSAGES];
    MPI_Status sts[MESSAGES];
    unsigned char *out[MESSAGES], *big = malloc(BIG);
    for (tag = 0; tag < MESSAGES; ++tag) {
      out[tag] = malloc(length_of(tag));
      fill(out[tag], length_of(tag), rank, tag);
      MPI_Isend(out[tag], (int)length_of(tag), MPI_BYTE, 0, tag, MPI_COMM_WORLD, &reqs[tag]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    fill(big, BIG, rank, 99);
    MPI_Send(big, BIG, MPI_BYTE, 0, 99, MPI_COMM_WORLD);
    MPI_Waitall(MESSAGES, reqs, sts);
    for (tag = 0; tag < MESSAGES; ++tag) free(out[tag]);
    free(big);
  } else {
    unsigned char *in = malloc(BIG);
    MPI_Barrier(MPI_COMM_WORLD);
    for (source = 1; source < size; ++source) {
      MPI_Recv(in, BIG, MPI_BYTE, source, 99, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, MPI_BYTE, &count);
      CHECK(count == BIG && verify(in, BIG, source, 99), "2 MiB from %d: count %d", source, count);
      for (tag = MESSAGES - 1; tag >= 0; --tag) {
        MPI_Recv(in, BIG, MPI_BYTE, source, tag, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_BYTE, &count);
        CHECK(count == (int)length_of(tag) && st.MPI_SOURCE == source && st.MPI_TAG == tag,
              "from %d tag %d: count %d source %d tag %d", source, tag, count, st.MPI_SOURCE,
              st.MPI_TAG);
        CHECK(verify(in, length_of(tag), source, tag), "from %d tag %d: wrong data", source, tag);
      }
    }
    free(in);
  }

  /* A synchronous long send to a receive posted late completes only once matched: rank 1
   * sends tag 51 after its Ssend of tag 50 returns, and rank 0, polling for tag 51 a while
   * before it posts the receive of tag 50, must not see it. */
  if (rank == 1) {
    unsigned char *m = malloc(300000);
    fill(m, 300000, rank, 50);
    MPI_Ssend(m, 300000, MPI_BYTE, 0, 50, MPI_COMM_WORLD);
    free(m);
    MPI_Send(&rank, 1, MPI_INT, 0, 51, MPI_COMM_WORLD);
  } else if (rank == 0) {
    unsigned char *m = malloc(300000);
    MPI_Request after;
    int i, flag = 0;
    double until;
    MPI_Irecv(&done, 1, MPI_INT, 1, 51, MPI_COMM_WORLD, &after);
    until = MPI_Wtime() + 0.05;
    for (i = 0; i < 1000 || MPI_Wtime() < until; ++i) {
      MPI_Test(&after, &flag, &st);
      CHECK(!flag, "the message sent after an Ssend arrived before the Ssend was matched");
    }
    MPI_Recv(m, 300000, MPI_BYTE, 1, 50, MPI_COMM_WORLD, &st);
    CHECK(verify(m, 300000, 1, 50), "the Ssend's data are wrong");
    MPI_Wait(&after, &st);
    CHECK(done == 1, "tag 51 carried %d", done);
    free(m);
  }

  /* A ring of 1 MiB Sendrecvs: each rank's message waits for the receive of its neighbour. */
  {
    const int n = 1 << 20, right = (rank + 1) % size, left = (rank + size - 1) % size;
    unsigned char *out = malloc(n), *in = malloc(n);
    fill(out, n, rank, 60);
    MPI_Sendrecv(out, n, MPI_BYTE, right, 60, in, n, MPI_BYTE, left, 60, MPI_COMM_WORLD, &st);
    CHECK(verify(in, n, left, 60), "the ring's data from %d are wrong", left);
    free(out);
    free(in);
  }
  /* One 64 MiB message, rank 1 to rank 0, whose receive is posted after a barrier. */
  if (rank <= 1) {
    const size_t n = (size_t)64 << 20;
    unsigned char *m = malloc(n);
    if (rank == 1) {
      MPI_Request req;
      fill(m, n, rank, 70);
      MPI_Isend(m, (int)n, MPI_BYTE, 0, 70, MPI_COMM_WORLD, &req);
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Wait(&req, &st);
    } else {
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Recv(m, (int)n, MPI_BYTE, 1, 70, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, MPI_BYTE, &count);
      CHECK(count == (int)n && verify(m, n, 1, 70), "the 64 MiB message: count %d", count);
    }
    free(m);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank == 0) printf("PASS mpi_unexpected\n");
  MPI_Finalize();
  return 0;
}
