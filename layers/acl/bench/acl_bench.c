/* acl_bench: the ACL paper's six cases (Painter et al. 1995, §5), one driver for every column
 * (layers/acl/README.md, "Benchmarks", defines the patterns). Built two ways from this file:
 *   - against ACLMPL (aclmpl-<backend>): methods "sync" (send_block/receive_block,
 *     send_and_receive), "async" (send_async/receive_async + msg_wait) and "put" (splitc's
 *     one-sided bulk_put + sync + a flag written after: the seed's "SHMEM" column);
 *   - with -DACL_BENCH_MPI against an MPI (Open MPI's mpicc, or splitc's MPI layer): "sync"
 *     (MPI_Send/MPI_Recv, MPI_Sendrecv) and "async" (MPI_Isend/MPI_Irecv/MPI_Waitall); the
 *     global operations are MPI_Bcast and MPI_Reduce.
 * Usage: acl_bench -case latency|one_to_all|all_to_one|all_to_all|broadcast|reduce
 *                  -method sync|async|put|swap [-sizes 8,1024,...] [-reps N] [-label L]
 * Rows on processor 0: "<label> <case> <method> <P> <bytes> <value> <unit>", where the value is
 * one-way latency in microseconds (latency), MB/s of 10^6 bytes (the three patterns) or
 * seconds per operation (broadcast, reduce). Times are the job's clock: virtual on the sim.
 * All state is on the stack: the driver runs on the sim backends too. */
#ifdef ACL_BENCH_MPI
#include <mpi.h>
#else
#include <aclmpl.h>
#include <splitc.h>
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct config {
  const char *pattern, *method, *label;
  int me, p, reps;
  char *send, *receive; /* P * max_size each */
#ifndef ACL_BENCH_MPI
  char *window;          /* the put method's symmetric receive area: P * max_size */
  volatile int64_t *flags; /* the put method's flags, one per sender, symmetric */
  int64_t round;
#endif
};

/* ---- the primitives each method offers ------------------------------------------------------ */

#ifdef ACL_BENCH_MPI
static double bench_now(void) { return MPI_Wtime(); }
static void bench_barrier(void) { MPI_Barrier(MPI_COMM_WORLD); }
static int is(const struct config *c, const char *m) { return strcmp(c->method, m) == 0; }

static void send_to(struct config *c, int to, const char *buf, int n) {
  (void)c;
  MPI_Send((void *)buf, n, MPI_BYTE, to, 1, MPI_COMM_WORLD);
}
static void receive_from(struct config *c, int from, char *buf, int n) {
  (void)c;
  MPI_Recv(buf, n, MPI_BYTE, from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}
/* Post every receive of `from`, every send of `to`, then wait for all (async), or one by one. */
static void many(struct config *c, int nfrom, const int *from, int nto, const int *to, int n) {
  MPI_Request *r = malloc(sizeof(MPI_Request) * (size_t)(nfrom + nto + 1));
  int k;
  if (is(c, "sync")) {
    /* Blocking: sends and receives in the order given, exchanges by Sendrecv. */
    for (k = 0; k < nfrom || k < nto; ++k) {
      if (k < nfrom && k < nto)
        MPI_Sendrecv(c->send + (size_t)to[k] * n, n, MPI_BYTE, to[k], 1, c->receive + (size_t)from[k] * n,
                     n, MPI_BYTE, from[k], 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      else if (k < nto)
        send_to(c, to[k], c->send + (size_t)to[k] * n, n);
      else
        receive_from(c, from[k], c->receive + (size_t)from[k] * n, n);
    }
  } else {
    for (k = 0; k < nfrom; ++k)
      MPI_Irecv(c->receive + (size_t)from[k] * n, n, MPI_BYTE, from[k], 1, MPI_COMM_WORLD, &r[k]);
    for (k = 0; k < nto; ++k)
      MPI_Isend(c->send + (size_t)to[k] * n, n, MPI_BYTE, to[k], 1, MPI_COMM_WORLD, &r[nfrom + k]);
    MPI_Waitall(nfrom + nto, r, MPI_STATUSES_IGNORE);
  }
  free(r);
}
static void broadcast(struct config *c, int n) { MPI_Bcast(c->send, n, MPI_BYTE, 0, MPI_COMM_WORLD); }
static void reduce(struct config *c, int n) {
  MPI_Reduce(c->send, c->receive, n / 8, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
}
#else
static double bench_now(void) { return ACLMPL_time(); }
static void bench_barrier(void) { ACLMPL_sync_with_nodes(); }
static int is(const struct config *c, const char *m) { return strcmp(c->method, m) == 0; }

/* put: the data into this processor's area of the receiver's window, then the flag. */
static void put_to(struct config *c, int to, const char *buf, int n, int max) {
  const int64_t value = c->round;
  if (n > 0) bulk_put(toglobal(to, c->window + (size_t)c->me * max), (void *)buf, n);
  splitc_sync();
  splitc_write_bytes(toglobal(to, (void *)&c->flags[c->me]), &value, sizeof value, "flag");
}
static void await_flag(struct config *c, int from) {
  while (c->flags[from] < c->round) splitc_poll();
}

static void send_to(struct config *c, int to, const char *buf, int n) {
  if (is(c, "async")) {
    ACLMPL_mcb m = ACLMPL_send_async(to, 1, buf, n, NULL, NULL);
    ACLMPL_msg_wait(m);
    ACLMPL_free_mcb(m);
  } else {
    ACLMPL_send_block(to, 1, buf, n);
  }
}
static void receive_from(struct config *c, int from, char *buf, int n) {
  if (is(c, "async")) ACLMPL_receive(from, 1, buf, n);
  else ACLMPL_receive_block(from, 1, buf, n);
}
static void many(struct config *c, int nfrom, const int *from, int nto, const int *to, int n, int max) {
  int k;
  if (is(c, "put")) {
    c->round++;
    for (k = 0; k < nto; ++k) put_to(c, to[k], c->send + (size_t)to[k] * n, n, max);
    for (k = 0; k < nfrom; ++k) await_flag(c, from[k]);
    return;
  }
  if (is(c, "async")) {
    ACLMPL_mcb *m = malloc(sizeof(ACLMPL_mcb) * (size_t)(nfrom + nto + 1));
    for (k = 0; k < nfrom; ++k)
      m[k] = ACLMPL_receive_async(from[k], 1, c->receive + (size_t)from[k] * n, n, NULL, NULL);
    for (k = 0; k < nto; ++k)
      m[nfrom + k] = ACLMPL_send_async(to[k], 1, c->send + (size_t)to[k] * n, n, NULL, NULL);
    for (k = 0; k < nfrom + nto; ++k) {
      ACLMPL_msg_wait(m[k]);
      ACLMPL_free_mcb(m[k]);
    }
    free(m);
    return;
  }
  for (k = 0; k < nfrom || k < nto; ++k) {
    if (k < nfrom && k < nto)
      ACLMPL_send_and_receive(from[k], 1, c->receive + (size_t)from[k] * n, n, to[k], 1,
                              c->send + (size_t)to[k] * n, n);
    else if (k < nto)
      ACLMPL_send_block(to[k], 1, c->send + (size_t)to[k] * n, n);
    else
      ACLMPL_receive_block(from[k], 1, c->receive + (size_t)from[k] * n, n);
  }
}
static void broadcast(struct config *c, int n) { ACLMPL_bc(c->send, n); }
static void reduce(struct config *c, int n) {
  if (is(c, "swap")) ACLMPL_reduce_swap(c->send, n / 8, 8, ACLMPL_op_add_double);
  else ACLMPL_reduce(c->send, n / 8, 8, ACLMPL_op_add_double);
}
#endif

/* ---- the cases ----------------------------------------------------------------------------------- */

#ifdef ACL_BENCH_MPI
#define MANY(c, nf, f, nt, t, n, max) ((void)(max), many(c, nf, f, nt, t, n))
#else
#define MANY(c, nf, f, nt, t, n, max) many(c, nf, f, nt, t, n, max)
#endif

/* One repetition of a pattern: who sends to whom (README.md, "Benchmarks"). */
static void pattern_once(struct config *c, int n, int max) {
  int *from = malloc(sizeof(int) * (size_t)c->p), *to = malloc(sizeof(int) * (size_t)c->p);
  int nf = 0, nt = 0, k;
  if (strcmp(c->pattern, "one_to_all") == 0) {
    if (c->me == 0)
      for (k = 1; k < c->p; ++k) to[nt++] = k;
    else
      from[nf++] = 0;
  } else if (strcmp(c->pattern, "all_to_one") == 0) {
    if (c->me == 0)
      for (k = 1; k < c->p; ++k) from[nf++] = k;
    else
      to[nt++] = 0;
  } else { /* all_to_all: partner k steps away, k = 1..P-1 */
    for (k = 1; k < c->p; ++k) {
      to[nt++] = (c->me + k) % c->p;
      from[nf++] = (c->me + c->p - k) % c->p;
    }
  }
  MANY(c, nf, from, nt, to, n, max);
  free(from);
  free(to);
}

static double measure(struct config *c, int n, int max) {
  double t0;
  int r;
  const int one_word = 8;
  bench_barrier();
  t0 = bench_now();
  for (r = 0; r < c->reps; ++r) {
    if (strcmp(c->pattern, "latency") == 0) {
      /* Ping-pong of one word between 0 and 1; the value is half the round trip. */
      if (c->me > 1) continue;
#ifndef ACL_BENCH_MPI
      if (is(c, "put")) {
        c->round++;
        if (c->me == 0) {
          put_to(c, 1, c->send, one_word, max);
          await_flag(c, 1);
        } else {
          await_flag(c, 0);
          put_to(c, 0, c->send, one_word, max);
        }
        continue;
      }
#endif
      if (c->me == 0) {
        send_to(c, 1, c->send, one_word);
        receive_from(c, 1, c->receive, one_word);
      } else {
        receive_from(c, 0, c->receive, one_word);
        send_to(c, 0, c->send, one_word);
      }
    } else if (strcmp(c->pattern, "broadcast") == 0) {
      broadcast(c, n);
    } else if (strcmp(c->pattern, "reduce") == 0) {
      reduce(c, n);
    } else {
      pattern_once(c, n, max);
    }
  }
  bench_barrier();
  return bench_now() - t0;
}

static int parse_sizes(const char *list, int *sizes, int most) {
  int count = 0;
  const char *p = list;
  while (*p != '\0' && count < most) {
    sizes[count++] = (int)strtol(p, (char **)&p, 10);
    if (*p == ',') ++p;
  }
  return count;
}

int main(int argc, char **argv) {
  struct config c;
  int sizes[64], nsizes, i, max = 0, reps_given = 0;
  const char *size_list = "8,64,1024,8192,65536,1048576";
  memset(&c, 0, sizeof c);
  c.pattern = "latency";
  c.method = "sync";
  c.label = "acl";
#ifdef ACL_BENCH_MPI
  c.label = "mpi";
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &c.me);
  MPI_Comm_size(MPI_COMM_WORLD, &c.p);
#else
  ACLMPL_init(&argc, &argv);
  c.me = ACLMPL_self_address();
  c.p = ACLMPL_partition_size();
#endif
  for (i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "-case") == 0) c.pattern = argv[i + 1];
    else if (strcmp(argv[i], "-method") == 0) c.method = argv[i + 1];
    else if (strcmp(argv[i], "-sizes") == 0) size_list = argv[i + 1];
    else if (strcmp(argv[i], "-reps") == 0) c.reps = atoi(argv[i + 1]), reps_given = 1;
    else if (strcmp(argv[i], "-label") == 0) c.label = argv[i + 1];
  }
  if (strcmp(c.pattern, "latency") == 0) size_list = "8";
  nsizes = parse_sizes(size_list, sizes, 64);
  for (i = 0; i < nsizes; ++i) max = sizes[i] > max ? sizes[i] : max;
  c.send = calloc((size_t)c.p * (size_t)max + 8, 1);
  c.receive = calloc((size_t)c.p * (size_t)max + 8, 1);
#ifndef ACL_BENCH_MPI
  {
    __globPtrType w = all_spread_malloc(c.p, c.p * max + 8);
    __globPtrType f = all_spread_malloc(c.p, c.p * (int)sizeof(int64_t));
    c.window = tolocal(w); /* this processor's copy (on the sim, segments lie apart) */
    c.flags = tolocal(f);
    memset((void *)c.flags, 0, sizeof(int64_t) * (size_t)c.p);
    bench_barrier();
  }
#endif
  for (i = 0; i < nsizes; ++i) {
    const int n = sizes[i];
    double t, value;
    const char *unit;
    if (!reps_given) {
      /* About 4 MiB moved per processor per size, at least 20 and at most 2000 repetitions;
       * 20,000 round trips for the latency (splitc's processes run slower for their first few
       * milliseconds, which 2,000 round trips and their warm-up do not outlast). */
      long r = (4L << 20) / ((long)(n > 0 ? n : 1) * (c.p > 1 ? c.p - 1 : 1));
      c.reps = (int)(r < 20 ? 20 : r > 2000 ? 2000 : r);
      if (strcmp(c.pattern, "latency") == 0) c.reps = 20000;
    }
    measure(&c, n, max); /* warm up */
    t = measure(&c, n, max);
    if (strcmp(c.pattern, "latency") == 0) {
      value = t / c.reps / 2 * 1e6;
      unit = "us";
    } else if (strcmp(c.pattern, "broadcast") == 0 || strcmp(c.pattern, "reduce") == 0) {
      value = t / c.reps;
      unit = "s";
    } else {
      value = (double)n * (c.p - 1) * c.reps / t / 1e6;
      unit = "MB/s";
    }
    if (c.me == 0) printf("%s %s %s %d %d %.6g %s\n", c.label, c.pattern, c.method, c.p, n, value, unit);
    fflush(stdout);
  }
  free(c.send);
  free(c.receive);
#ifdef ACL_BENCH_MPI
  MPI_Finalize();
#else
  ACLMPL_finalize();
#endif
  return 0;
}
