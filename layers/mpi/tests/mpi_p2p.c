/* splitc's MPI against MPI's semantics, at any P >= 1: every call of the subset, wildcards and
 * ordering, truncation, zero bytes, self and MPI_PROC_NULL, the crossed long-send patterns of
 * the seed's protocol, persistent requests, many messages in flight, long messages, derived
 * datatypes, collectives. A plain MPI program (no splitc call, no mutable static: it also runs
 * on the sim, whose processors share statics). Prints "PASS mpi_p2p" on rank 0. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond, ...)                                                         \
  do {                                                                           \
    if (!(cond)) {                                                               \
      fprintf(stderr, "rank %d: check failed at line %d: %s: ", rank, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                              \
      fprintf(stderr, "\n");                                                     \
      MPI_Abort(MPI_COMM_WORLD, 1);                                              \
    }                                                                            \
  } while (0)

static unsigned char pattern(int source, int tag, size_t i) {
  return (unsigned char)(source * 31 + tag * 7 + i * 13);
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

/* A ring exchange of `n` bytes with tag `tag`: everyone sends to right, receives from left. */
static void ring(int rank, int size, size_t n, int tag) {
  unsigned char *out = malloc(n + 1), *in = malloc(n + 1);
  int right = (rank + 1) % size, left = (rank + size - 1) % size, count = -1;
  MPI_Request req;
  MPI_Status st;
  fill(out, n, rank, tag);
  MPI_Irecv(in, (int)n, MPI_BYTE, left, tag, MPI_COMM_WORLD, &req);
  MPI_Send(out, (int)n, MPI_BYTE, right, tag, MPI_COMM_WORLD);
  MPI_Wait(&req, &st);
  MPI_Get_count(&st, MPI_BYTE, &count);
  CHECK(st.MPI_SOURCE == left && st.MPI_TAG == tag && count == (int)n,
        "ring of %zu bytes: source %d tag %d count %d", n, st.MPI_SOURCE, st.MPI_TAG, count);
  CHECK(verify(in, n, left, tag), "ring of %zu bytes: wrong data", n);
  free(out);
  free(in);
}

int main(int argc, char **argv) {
  int rank = -1, size = 0, i, flag, count, provided;
  MPI_Status st;
  MPI_Request req;

  /* splitc's threading model is FUNNELED: asked for more, that is what it provides */
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  CHECK(provided == MPI_THREAD_FUNNELED, "provided %d", provided);
  MPI_Initialized(&flag);
  CHECK(flag, "not initialized");
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  {
    int self_rank = -1, self_size = 0, v = 0, sv = 0;
    char name[MPI_MAX_PROCESSOR_NAME];
    int len = 0;
    MPI_Comm_rank(MPI_COMM_SELF, &self_rank);
    MPI_Comm_size(MPI_COMM_SELF, &self_size);
    CHECK(self_rank == 0 && self_size == 1, "COMM_SELF %d of %d", self_rank, self_size);
    MPI_Get_version(&v, &sv);
    CHECK(v >= 1, "version %d", v);
    MPI_Get_processor_name(name, &len);
    CHECK(len > 0 && (int)strlen(name) == len, "processor name");
    CHECK(MPI_Wtime() >= 0 && MPI_Wtick() > 0, "clock"); /* virtual time starts at 0 */
  }

  /* Short and long ring exchanges, zero bytes included. */
  ring(rank, size, 0, 1);
  ring(rank, size, 8, 2);
  ring(rank, size, 256, 3);
  ring(rank, size, 257, 4);
  ring(rank, size, 100000, 5);
  ring(rank, size, (size_t)3 << 20, 6);

  /* Self: a send before the receive is posted (short and long), then after. */
  {
    unsigned char out[300], in[300];
    unsigned char *big = malloc(70000), *bigin = malloc(70000);
    fill(out, sizeof out, rank, 7);
    fill(big, 70000, rank, 8);
    MPI_Send(out, 300, MPI_BYTE, rank, 7, MPI_COMM_WORLD);
    MPI_Send(big, 70000, MPI_BYTE, rank, 8, MPI_COMM_WORLD);
    MPI_Recv(in, 300, MPI_BYTE, rank, 7, MPI_COMM_WORLD, &st);
    CHECK(verify(in, 300, rank, 7), "self short");
    MPI_Irecv(bigin, 70000, MPI_BYTE, MPI_ANY_SOURCE, 8, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, &st);
    CHECK(st.MPI_SOURCE == rank && verify(bigin, 70000, rank, 8), "self long");
    MPI_Isend(out, 10, MPI_BYTE, 0, 9, MPI_COMM_SELF, &req);
    MPI_Probe(0, 9, MPI_COMM_SELF, &st);
    MPI_Get_count(&st, MPI_BYTE, &count);
    CHECK(st.MPI_SOURCE == 0 && count == 10, "probe on self: source %d count %d", st.MPI_SOURCE, count);
    MPI_Recv(in, 10, MPI_BYTE, 0, 9, MPI_COMM_SELF, MPI_STATUS_IGNORE);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    free(big);
    free(bigin);
  }

  /* MPI_PROC_NULL: completes at once, source PROC_NULL, tag ANY_TAG, count 0. */
  {
    int x = 5;
    MPI_Send(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    MPI_Recv(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && count == 0 && x == 5,
          "PROC_NULL: source %d tag %d count %d", st.MPI_SOURCE, st.MPI_TAG, count);
    MPI_Probe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "probe PROC_NULL");
  }

  if (size >= 2) {
    /* Ordering: rank 1 sends 200 messages of mixed sizes with one tag; rank 0 receives them
     * with ANY_SOURCE and ANY_TAG in order. */
    const int n = 200;
    if (rank == 1) {
      for (i = 0; i < n; ++i) {
        int len = (i % 5 == 0) ? 5000 : 4;
        unsigned char *m = malloc(len);
        memset(m, 0, len);
        memcpy(m, &i, sizeof i);
        MPI_Send(m, len, MPI_BYTE, 0, 11, MPI_COMM_WORLD);
        free(m);
      }
    } else if (rank == 0) {
      unsigned char m[5000];
      for (i = 0; i < n; ++i) {
        int got;
        MPI_Recv(m, 5000, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        memcpy(&got, m, sizeof got);
        CHECK(got == i && st.MPI_SOURCE == 1 && st.MPI_TAG == 11, "message %d arrived as %d", i, got);
      }
    }

    /* Truncation under MPI_ERRORS_RETURN: MPI_ERR_TRUNCATE, only what fits copied. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 1) {
      unsigned char m[600];
      fill(m, 600, 1, 12);
      MPI_Send(m, 100, MPI_BYTE, 0, 12, MPI_COMM_WORLD);
      MPI_Send(m, 600, MPI_BYTE, 0, 13, MPI_COMM_WORLD);
    } else if (rank == 0) {
      unsigned char m[600];
      int e;
      memset(m, 0xEE, sizeof m);
      e = MPI_Recv(m, 50, MPI_BYTE, 1, 12, MPI_COMM_WORLD, &st);
      CHECK(e == MPI_ERR_TRUNCATE && verify(m, 50, 1, 12) && m[50] == 0xEE, "short truncation %d", e);
      memset(m, 0xEE, sizeof m);
      e = MPI_Recv(m, 300, MPI_BYTE, 1, 13, MPI_COMM_WORLD, &st);
      CHECK(e == MPI_ERR_TRUNCATE && verify(m, 300, 1, 12) && m[300] == 0xEE, "long truncation %d", e);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

    /* Crossed long sends: Isend(long) to each other, then a blocking Recv; and Isend(long),
     * Barrier, Wait against Recv, Barrier. Neither may deadlock. */
    if (rank < 2) {
      size_t n2 = 1 << 20;
      unsigned char *out = malloc(n2), *in = malloc(n2);
      int peer = 1 - rank;
      fill(out, n2, rank, 14);
      MPI_Isend(out, (int)n2, MPI_BYTE, peer, 14, MPI_COMM_WORLD, &req);
      MPI_Recv(in, (int)n2, MPI_BYTE, peer, 14, MPI_COMM_WORLD, &st);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      CHECK(verify(in, n2, peer, 14), "crossed long sends");
      free(out);
      free(in);
    }
    {
      size_t n3 = 1 << 20;
      unsigned char *buf = malloc(n3);
      if (rank == 0) {
        fill(buf, n3, 0, 15);
        MPI_Isend(buf, (int)n3, MPI_BYTE, 1, 15, MPI_COMM_WORLD, &req);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        MPI_Recv(buf, (int)n3, MPI_BYTE, 0, 15, MPI_COMM_WORLD, &st);
        CHECK(verify(buf, n3, 0, 15), "Isend(long), Barrier, Wait");
        MPI_Barrier(MPI_COMM_WORLD);
      } else {
        MPI_Barrier(MPI_COMM_WORLD);
      }
      free(buf);
    }

    /* Synchronous sends, Sendrecv, Sendrecv_replace, Iprobe. */
    if (rank < 2) {
      int peer = 1 - rank, v = rank * 100, w = -1;
      if (rank == 0) {
        MPI_Ssend(&v, 1, MPI_INT, peer, 16, MPI_COMM_WORLD);
      } else {
        do MPI_Iprobe(0, 16, MPI_COMM_WORLD, &flag, &st); while (!flag);
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(count == 1 && st.MPI_TAG == 16, "iprobe count %d", count);
        MPI_Recv(&w, 1, MPI_INT, 0, 16, MPI_COMM_WORLD, &st);
        CHECK(w == 0, "ssend value %d", w);
      }
      MPI_Sendrecv(&v, 1, MPI_INT, peer, 17, &w, 1, MPI_INT, peer, 17, MPI_COMM_WORLD, &st);
      CHECK(w == peer * 100, "sendrecv %d", w);
      MPI_Sendrecv_replace(&v, 1, MPI_INT, peer, 18, peer, 18, MPI_COMM_WORLD, &st);
      CHECK(v == peer * 100, "sendrecv_replace %d", v);
    }

    /* Many messages in flight: rank 0 posts 10,000 receives of one int (at least), the
     * other ranks' share each, and completes them with Waitany and Testall while every
     * other rank Isends its share. */
    {
      const int m = size > 1 ? (10000 + size - 2) / (size - 1) : 1;
      int *vals = malloc(sizeof(int) * m * (rank == 0 ? size : 1));
      MPI_Request *reqs = malloc(sizeof(MPI_Request) * m * (rank == 0 ? size : 1));
      if (rank == 0) {
        int total = (size - 1) * m, done = 0, index;
        for (i = 0; i < total; ++i)
          MPI_Irecv(&vals[i], 1, MPI_INT, 1 + i / m, 19, MPI_COMM_WORLD, &reqs[i]);
        while (done < total / 2) {
          MPI_Waitany(total, reqs, &index, &st);
          CHECK(index != MPI_UNDEFINED && st.MPI_SOURCE == 1 + index / m, "waitany");
          ++done;
        }
        do MPI_Testall(total, reqs, &flag, MPI_STATUSES_IGNORE); while (!flag);
        for (i = 0; i < total; ++i)
          CHECK(vals[i] == (1 + i / m) * 100000 + i % m, "value %d: %d", i, vals[i]);
      } else {
        for (i = 0; i < m; ++i) {
          vals[i] = rank * 100000 + i;
          MPI_Isend(&vals[i], 1, MPI_INT, 0, 19, MPI_COMM_WORLD, &reqs[i]);
        }
        MPI_Waitall(m, reqs, MPI_STATUSES_IGNORE);
      }
      free(vals);
      free(reqs);
    }

    /* Persistent requests, reused 300 times. */
    if (rank < 2) {
      int peer = 1 - rank, out = 0, in = -1, k;
      MPI_Request both[2];
      MPI_Send_init(&out, 1, MPI_INT, peer, 20, MPI_COMM_WORLD, &both[0]);
      MPI_Recv_init(&in, 1, MPI_INT, peer, 20, MPI_COMM_WORLD, &both[1]);
      for (k = 0; k < 300; ++k) {
        out = k * 3 + rank;
        MPI_Startall(2, both);
        MPI_Waitall(2, both, MPI_STATUSES_IGNORE);
        CHECK(in == k * 3 + peer, "persistent round %d: %d", k, in);
      }
      MPI_Request_free(&both[0]);
      MPI_Request_free(&both[1]);
    }
  }

  /* A duplicate communicator is a separate context: a message on it never matches a receive
   * on the original. Attributes follow MPI-1's calls. */
  {
    MPI_Comm dup;
    int key, value = 0, *got = NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    if (size >= 2 && rank < 2) {
      int peer = 1 - rank, a = 1, b = 2, x = 0, y = 0;
      if (rank == 0) {
        MPI_Send(&a, 1, MPI_INT, peer, 21, dup);
        MPI_Send(&b, 1, MPI_INT, peer, 21, MPI_COMM_WORLD);
      } else {
        MPI_Recv(&y, 1, MPI_INT, peer, 21, MPI_COMM_WORLD, &st);
        MPI_Recv(&x, 1, MPI_INT, peer, 21, dup, &st);
        CHECK(x == 1 && y == 2, "contexts mixed: %d %d", x, y);
      }
    }
    MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &key, NULL);
    MPI_Attr_get(dup, key, &got, &flag);
    CHECK(!flag, "attribute present before put");
    MPI_Attr_put(dup, key, &value);
    MPI_Attr_get(dup, key, &got, &flag);
    CHECK(flag && got == &value, "attribute get");
    MPI_Comm_free(&dup);
  }

  /* A derived datatype: one double every 10 doubles (mpptest's -vector). */
  if (size >= 2 && rank < 2) {
    double src[100], dst[100];
    int blocks[2] = {1, 1};
    MPI_Aint displs[2] = {0, 80};
    MPI_Datatype types[2] = {MPI_DOUBLE, MPI_UB}, vec;
    MPI_Type_struct(2, blocks, displs, types, &vec);
    MPI_Type_commit(&vec);
    for (i = 0; i < 100; ++i) {
      src[i] = i;
      dst[i] = -1;
    }
    if (rank == 0) {
      MPI_Send(src, 10, vec, 1, 22, MPI_COMM_WORLD);
    } else {
      MPI_Recv(dst, 10, vec, 0, 22, MPI_COMM_WORLD, &st);
      MPI_Get_count(&st, vec, &count);
      CHECK(count == 10, "vector count %d", count);
      for (i = 0; i < 100; ++i)
        CHECK(dst[i] == (i % 10 == 0 ? (double)i : -1.0), "vector element %d: %g", i, dst[i]);
    }
    MPI_Type_free(&vec);
  }

  /* Collectives. */
  {
    int v = rank + 1, sum = 0, max = 0, root = size - 1;
    double d = rank * 0.5, dsum = 0;
    char bytes[64];
    MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == size * (size + 1) / 2, "allreduce sum %d", sum);
    MPI_Allreduce(&v, &max, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    CHECK(max == size, "allreduce max %d", max);
    MPI_Reduce(&d, &dsum, 1, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
    if (rank == root) CHECK(dsum == 0.25 * size * (size - 1), "reduce %g", dsum);
    memset(bytes, rank == root ? 'x' : 0, sizeof bytes);
    MPI_Bcast(bytes, 64, MPI_BYTE, root, MPI_COMM_WORLD);
    CHECK(bytes[0] == 'x' && bytes[63] == 'x', "bcast");
    MPI_Barrier(MPI_COMM_WORLD);
  }

  { /* A ring of 1 MiB between buffers from MPI_Alloc_mem (the segment: one copy on smp) */
    const int n = 1 << 20, right = (rank + 1) % size, left = (rank + size - 1) % size;
    unsigned char *out = NULL, *in = NULL;
    MPI_Alloc_mem(n, MPI_INFO_NULL, &out);
    MPI_Alloc_mem(n, MPI_INFO_NULL, &in);
    CHECK(out != NULL && in != NULL, "alloc_mem");
    fill(out, n, rank, 40);
    MPI_Sendrecv(out, n, MPI_BYTE, right, 40, in, n, MPI_BYTE, left, 40, MPI_COMM_WORLD, &st);
    CHECK(verify(in, n, left, 40), "a ring between MPI_Alloc_mem buffers: wrong data");
    MPI_Free_mem(out);
    MPI_Free_mem(in);
  }

  if (rank == 0) printf("PASS mpi_p2p\n");
  MPI_Finalize();
  return 0;
}
