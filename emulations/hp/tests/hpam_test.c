/* HPAM's own tests, one program with a subcommand per property family, run
 * as a job of real processes (splitc-run --backend hpam) or, built with
 * HPAM_TEST_ON_SIM and HPAM's sim wire, of simulated processors. Node 0 prints "PASS hpam_test <command>" when every node
 * passed.
 *   basic   requests and replies of every form, empty replies, store,
 *           store_async, get, am_wait
 *   flood [N] every node floods every node (itself too) with requests; each
 *           pair's requests and replies run once each, in send order
 *           (run under HPAM_DROP / _DUPLICATE / _REORDER)
 *   errors  bad input is refused with -1 and the right am_errno
 *   dead    node 1 stops answering; node 0's request ends the job naming it */
#define _POSIX_C_SOURCE 200809L
#include <hpam.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_NODES 64
#define CHECK(cond)                                                                    \
  do {                                                                                 \
    if (!(cond)) {                                                                     \
      fprintf(stderr, "hpam_test: node %d: %s:%d: check failed: %s (am_errno %d)\n",   \
              am_my_proc(), __FILE__, __LINE__, #cond, am_errno);                      \
      exit(1);                                                                         \
    }                                                                                  \
  } while (0)

/* Per node (the simulated substrate runs every node in one process). */
struct node_data {
  volatile int replies, done_count, got_df, got_store, got_end, got_get;
  long sum;
  long next_from[MAX_NODES]; /* flood: next sequence number expected from each node */
  long next_reply[MAX_NODES];
  volatile int flood_done;
  int errors_seen[16];
  char buffer[4096];
  char source[4096];
};
static struct node_data nodes[MAX_NODES];
static struct node_data *me(void) { return &nodes[am_my_proc()]; }

/* ---- basic ---- */
static void reply_count(vnn_t src, long a1, long a2, long a3, long a4) {
  (void)src;
  me()->sum += a1 + a2 + a3 + a4;
  me()->replies++;
}
static void req0(vnn_t src) { CHECK(am_reply_4(src, reply_count, 1, 0, 0, 0) == 0); }
static void req1(vnn_t src, long a) { CHECK(am_reply_4(src, reply_count, a, 0, 0, 0) == 0); }
static void req2(vnn_t src, long a, long b) { CHECK(am_reply_4(src, reply_count, a, b, 0, 0) == 0); }
static void req3(vnn_t src, long a, long b, long c) {
  CHECK(am_reply_4(src, reply_count, a, b, c, 0) == 0);
}
static void req4(vnn_t src, long a, long b, long c, long d) {
  CHECK(am_reply_4(src, reply_count, a, b, c, d) == 0);
}
static void silent(vnn_t src, long a) { (void)src; (void)a; } /* no reply: HPAM sends an empty one */
static void df_reply(vnn_t src, int a, int b, double d) {
  (void)src;
  CHECK(a == 7 && b == -3 && d == 2.5);
  me()->got_df++;
}
static void df_request(vnn_t src, int a, int b, double d) {
  CHECK(am_reply_df(src, df_reply, a, b, d) == 0);
}
static void store_done(vnn_t src, void *addr, int nbytes, void *arg) {
  (void)src;
  CHECK(addr == me()->buffer && nbytes == 4000 && arg == (void *)0x1234);
  me()->got_store++;
}
static void end_done(vnn_t src, void *addr, int nbytes, void *arg) {
  (void)src; (void)addr; (void)nbytes;
  CHECK(arg == (void *)0x77);
  me()->got_end++;
}
static void get_done(vnn_t src, void *addr, int nbytes, void *arg) {
  (void)src; (void)arg;
  CHECK(addr == me()->buffer && nbytes == 3000);
  me()->got_get++;
}

static void sync_all(void);

static int basic(void) {
  const int self = am_my_proc(), procs = am_procs();
  const int to = (self + 1) % procs;
  struct node_data *d = me();
  CHECK(am_request_0(to, req0) == 0);
  CHECK(am_request_1(to, req1, 10) == 0);
  CHECK(am_request_2(to, req2, 100, 1000) == 0);
  CHECK(am_request_3(to, req3, 1, 2, 3) == 0);
  CHECK(am_request_4(to, req4, 4, 5, 6, 7) == 0);
  CHECK(am_request_1(to, silent, 0) == 0);
  CHECK(am_request_df(to, df_request, 7, -3, 2.5) == 0);
  CHECK(am_wait(&d->replies, 5) == 0);
  CHECK(am_wait(&d->got_df, 1) == 0);
  CHECK(d->sum == 1 + 10 + 1100 + 6 + 22);
  /* store 4000 bytes into the next node's buffer (same address everywhere: static data) */
  for (int i = 0; i < 4000; ++i) d->source[i] = (char)(i * 7 + self);
  CHECK(am_store(to, d->source, nodes[to].buffer, 4000, store_done, (void *)0x1234) == 0);
  CHECK(am_store_async(to, d->source, nodes[to].buffer + 0, 4000, store_done, (void *)0x1234,
                       end_done, (void *)0x77) == 0);
  CHECK(am_wait(&d->got_end, 1) == 0);
  CHECK(am_wait(&d->got_store, 2) == 0);
  const int from = (self + procs - 1) % procs;
  for (int i = 0; i < 4000; ++i) CHECK(d->buffer[i] == (char)(i * 7 + from));
  sync_all();
  /* get 3000 bytes of the next node's source */
  memset(d->buffer, 0, sizeof d->buffer);
  CHECK(am_get(to, nodes[to].source, d->buffer, 3000, get_done, NULL) == 0);
  CHECK(am_wait(&d->got_get, 1) == 0);
  for (int i = 0; i < 3000; ++i) CHECK(d->buffer[i] == (char)(i * 7 + to));
  return 0;
}

/* ---- a barrier from requests (node 0 counts, then releases) ---- */
static void arrive(vnn_t src, long e) { (void)src; (void)e; me()->done_count++; }
static void release(vnn_t src, long e) { (void)src; me()->flood_done = (int)e; }
static int barrier_epoch[MAX_NODES];
static void sync_all(void) {
  const int self = am_my_proc(), procs = am_procs();
  const int e = ++barrier_epoch[self];
  struct node_data *d = me();
  if (self == 0) {
    CHECK(am_wait(&d->done_count, (procs - 1) * e) == 0);
    for (int q = 1; q < procs; ++q) CHECK(am_request_1(q, release, e) == 0);
  } else {
    CHECK(am_request_1(0, arrive, e) == 0);
    CHECK(am_wait(&d->flood_done, e) == 0);
  }
}

/* ---- flood ---- */
static long FLOOD = 3000; /* requests per pair (argument 2 of "flood") */
static void flood_reply(vnn_t src, long seq, long a2, long a3, long a4) {
  (void)a2; (void)a3; (void)a4;
  CHECK(seq == me()->next_reply[src]);
  me()->next_reply[src] += 2; /* odd ones get the empty reply: no handler runs */
  me()->replies++;
}
static void flood_request(vnn_t src, long seq, long a2, long a3, long a4) {
  (void)a3; (void)a4;
  CHECK(seq == me()->next_from[src]);
  CHECK(a2 == seq * 3 + src);
  me()->next_from[src]++;
  if (seq % 2 == 0) CHECK(am_reply_4(src, flood_reply, seq, 0, 0, 0) == 0);
  else CHECK(am_reply_1(src, (handler_1_t)0, 0) == -1 && am_errno == AM_EBADHANDLER);
}
static int flood(void) {
  const int self = am_my_proc(), procs = am_procs();
  struct node_data *d = me();
  /* even sequence numbers get a reply handler; odd ones the empty reply */
  for (long i = 0; i < FLOOD; ++i)
    for (int q = 0; q < procs; ++q) CHECK(am_request_4(q, flood_request, i, i * 3 + self, 0, 0) == 0);
  CHECK(am_wait(&d->replies, procs * FLOOD / 2) == 0);
  while (am_outstanding() > 0) am_poll();
  sync_all();
  for (int q = 0; q < procs; ++q) CHECK(d->next_from[q] == FLOOD && d->next_reply[q] == FLOOD);
  /* Under HPAM_CORRUPT the line noise was real: this node sent corrupted frames, and its
   * peers' corrupted frames failed their check here (and were retransmitted: the counts above). */
  const char *corrupt = getenv("HPAM_CORRUPT");
  if (corrupt != NULL && atof(corrupt) > 0 && procs > 1) {
    struct am_statistics st;
    am_get_statistics(&st);
    CHECK(st.injected_corruptions > 0 && st.corrupt_dropped > 0);
  }
  return 0;
}

/* ---- errors ---- */
static void noop_reply(vnn_t src) { (void)src; }
static void in_reply_handler(vnn_t src) {
  CHECK(am_reply_0(src, noop_reply) == -1 && am_errno == AM_EINHANDLER);
  CHECK(am_request_0(src, noop_reply) == -1 && am_errno == AM_EINHANDLER);
  me()->replies++;
}
static void misuse(vnn_t src) {
  CHECK(am_request_0(src, noop_reply) == -1 && am_errno == AM_EINHANDLER);
  CHECK(am_get(src, NULL, NULL, 0, NULL, NULL) == -1 && am_errno == AM_EINHANDLER);
  CHECK(am_poll() == -1 && am_errno == AM_EINHANDLER);
  CHECK(am_reply_0((src + 1) % am_procs() == src ? -1 : (src + 1) % am_procs(), noop_reply) == -1 &&
        am_errno == AM_EBADNODE);
  CHECK(am_reply_0(src, in_reply_handler) == 0);
  CHECK(am_reply_0(src, noop_reply) == -1 && am_errno == AM_EREPLIED);
}
static int errors(void) {
  const int procs = am_procs();
  struct node_data *d = me();
  CHECK(am_request_0(procs, req0) == -1 && am_errno == AM_EBADNODE);
  CHECK(am_request_0(-1, req0) == -1 && am_errno == AM_EBADNODE);
  CHECK(am_request_0(0, NULL) == -1 && am_errno == AM_EBADHANDLER);
  CHECK(am_store(0, d->source, d->buffer, am_max_size() + 1, NULL, NULL) == -1 &&
        am_errno == AM_ETOOLONG);
  CHECK(am_store(0, d->source, d->buffer, -1, NULL, NULL) == -1 && am_errno == AM_ETOOLONG);
  CHECK(am_get(0, d->source, d->buffer, am_max_size() + 1, NULL, NULL) == -1 &&
        am_errno == AM_ETOOLONG);
  CHECK(am_reply_0(0, noop_reply) == -1 && am_errno == AM_ENOTREQUEST);
  CHECK(am_max_size() == 4096 - 64);
  CHECK(am_request_0((am_my_proc() + 1) % procs, misuse) == 0);
  CHECK(am_wait(&d->replies, 1) == 0);
  am_set_blocking(0);
  int busy = 0;
  for (int i = 0; i < 64 && !busy; ++i)
    if (am_request_1(0, silent, 0) == -1) busy = am_errno == AM_EBUSY;
  CHECK(busy);
  am_set_blocking(1);
  return 0;
}

/* ---- dead ---- */
/* Node 1 stops answering (but stays alive on real processes: HPAM must find
 * out by itself); so do the others but node 0, which sends node 1 a request
 * and polls until HPAM declares node 1 dead. Returns 1 on the silent nodes. */
static int dead(void) {
  if (am_procs() < 2) return 0;
  if (am_my_proc() != 0) {
#ifdef HPAM_TEST_ON_SIM
    return 1; /* a simulated processor that leaves its main answers nothing more */
#else
    for (;;) sleep(1);
#endif
  }
  CHECK(am_request_1(1, silent, 0) == 0);
  for (;;) {
    am_poll();
    am_idle(1000);
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: hpam_test basic|flood|errors|dead\n");
    return 2;
  }
  CHECK(am_procs() == -1 && am_errno == AM_ENOTENABLED);
  if (am_enable() != 0) {
    fprintf(stderr, "hpam_test: am_enable: %s\n", am_error_string(am_errno));
    return 1;
  }
  CHECK(am_procs() <= MAX_NODES);
  const char *cmd = argv[1];
  int rc;
  if (strcmp(cmd, "basic") == 0) rc = basic();
  else if (strcmp(cmd, "flood") == 0) {
    if (argc > 2) FLOOD = atol(argv[2]) & ~1L; /* even */
    rc = flood();
  }
  else if (strcmp(cmd, "errors") == 0) rc = errors();
  else if (strcmp(cmd, "dead") == 0) {
    if (dead() != 0) return 0; /* silent: no sync, no am_disable */
    rc = 0;
  }
  else {
    fprintf(stderr, "hpam_test: unknown command %s\n", cmd);
    return 2;
  }
  sync_all();
  if (am_my_proc() == 0 && rc == 0) printf("PASS hpam_test %s\n", cmd);
  fflush(stdout);
  CHECK(am_disable() == 0);
  return rc;
}
