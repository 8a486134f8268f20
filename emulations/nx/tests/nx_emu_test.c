/* Tests of the NX emulation, one program with subcommands (run on 3 nodes):
 *   calls      every call's behaviour; prints "PASS nx_calls" on node 0
 *   bad-length a receive shorter than the message (_crecv: EQMSGLONG, then crecv ends the job)
 *   bad-type   a wrong type selector          (irecv ends the job)
 *   bad-mid    an unknown message id          (msgdone ends the job)
 *   bad-node   a node out of range            (csend ends the job)
 *   dies       node 1 exits with status 3 while node 0 waits in crecv: the job ends
 *   roundtrip  not a test: nodes 0 and 1 bounce a word, with csend/crecv and then
 *              answering from an hrecv handler's arrival; node 0 prints both mean
 *              round trips in microseconds of dclock (on the engine: virtual time)
 * The same program runs on MPI (a process per node) and on the sim engine
 * (every node a fiber of one process, sharing the statics: hence the arrays
 * indexed by node below). */
#include <nx.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { max_nodes = 64 };
static int failures[max_nodes];
#define CHECK(cond)                                                                  \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      fprintf(stderr, "node %ld: check failed: %s (line %d)\n", mynode(), #cond, __LINE__); \
      ++failures[mynode()];                                                          \
    }                                                                                \
  } while (0)

static long handled_type[max_nodes], handled_count[max_nodes], handled_node[max_nodes];
static void on_message(long type, long count, long node, long ptype) {
  (void)ptype;
  handled_type[mynode()] = type;
  handled_count[mynode()] = count;
  handled_node[mynode()] = node;
}

static int calls(void) {
  const long me = mynode(), p = numnodes();
  if (p > max_nodes) return 1;
  handled_type[me] = -1;
  const long right = (me + 1) % p, left = (me + p - 1) % p;
  CHECK(p >= 2);
  CHECK(myptype() == 0);
  double t0 = dclock();

  /* csend / crecv around the ring, then crecvx's info. */
  long value = 100 + me, got = -1;
  csend(7, (char *)&value, sizeof value, right, 0);
  crecv(7, (char *)&got, sizeof got);
  CHECK(got == 100 + left);
  CHECK(infocount() == sizeof got && infonode() == left && infotype() == 7);
  long info[NX_INFO_LENGTH];
  csend(NX_FORCE_TYPE | 8, (char *)&value, sizeof value, right, 0);
  crecvx(-1, (char *)&got, sizeof got, left, -1, info);
  CHECK(info[INFO_TYPE] == (NX_FORCE_TYPE | 8) && info[INFO_COUNT] == 8 && info[INFO_NODE] == left);

  /* isend / irecv / msgdone / msgwait; a pair's messages of one type in order. */
  long in[4] = {0}, out[4];
  long rid[4];
  for (int i = 0; i < 4; ++i) rid[i] = irecv(9, (char *)&in[i], sizeof in[i]);
  for (int i = 0; i < 4; ++i) {
    out[i] = me * 10 + i;
    msgwait(isend(9, (char *)&out[i], sizeof out[i], right, 0));
  }
  for (int i = 0; i < 4; ++i) {
    while (!msgdone(rid[i])) {
    }
    CHECK(in[i] == left * 10 + i);
  }

  /* A message to oneself; iprobe / cprobe / iprobex; a receive cancelled. */
  csend(11, (char *)&value, sizeof value, me, 0);
  cprobe(11);
  CHECK(iprobe(11) == 1 && infocount() == 8 && infonode() == me);
  CHECK(iprobex(11, me, -1, info) == 1 && info[INFO_TYPE] == 11);
  CHECK(iprobe(12) == 0);
  crecv(11, (char *)&got, sizeof got);
  CHECK(got == value);
  long cancelled = irecv(13, (char *)&got, sizeof got);
  msgcancel(cancelled);
  CHECK(_msgdone(cancelled) == -1 && errno == EQMID);

  /* hrecv: the handler runs in a later call, not while masked. */
  static long hbufs[max_nodes];
  long *hbuf = &hbufs[me];
  long old = masktrap(1);
  CHECK(old == 0);
  hrecv(14, (char *)hbuf, sizeof *hbuf, on_message);
  csend(14, (char *)&value, sizeof value, right, 0);
  gsync();
  (void)iprobe(15);
  CHECK(handled_type[me] == -1);
  masktrap(0);
  while (handled_type[me] == -1) (void)iprobe(15);
  CHECK(handled_type[me] == 14 && handled_count[me] == 8 && handled_node[me] == left &&
        *hbuf == 100 + left);

  /* The underscore forms: -1 and errno. */
  CHECK(_isend(-3, (char *)&value, 8, right, 0) == -1 && errno == EQTYPE);
  CHECK(_isend(5, (char *)&value, 8, p, 0) == -1 && errno == EQNODE);
  CHECK(_isend(5, (char *)&value, -1, right, 0) == -1 && errno == EQCOUNT);
  CHECK(_isend(5, (char *)&value, 8, right, 3) == -1 && errno == EQPTYPE);
  CHECK(_irecv(NX_MAX_TYPE + 1, (char *)&got, 8) == -1 && errno == EQTYPE);
  CHECK(_msgdone(99999) == -1 && errno == EQMID);

  /* Global operations. */
  double d[2] = {(double)me, 1.0}, dw[2];
  gdsum(d, 2, dw);
  CHECK(d[0] == p * (p - 1) / 2.0 && d[1] == (double)p);
  long l[3] = {me, me, me + 1}, lw[3];
  gihigh(l, 1, lw);
  CHECK(l[0] == p - 1);
  gilow(l + 1, 1, lw);
  CHECK(l[1] == 0);
  giprod(l + 2, 1, lw);
  long fact = 1;
  for (long i = 1; i <= p; ++i) fact *= i;
  CHECK(l[2] == fact);
  long s = 1;
  gisum(&s, 1, lw);
  CHECK(s == p);
  double dh = -(double)me;
  gdlow(&dh, 1, dw);
  CHECK(dh == -(double)(p - 1));
  gsync();
  CHECK(dclock() >= t0);

  long all = failures[me];
  gisum(&all, 1, lw);
  if (me == 0 && all == 0) printf("PASS nx_calls\n");
  return all == 0 ? 0 : 1;
}

/* The seed's alternative to NXAM's posted receives (Luna 1994 §4.1.3):
 * NX's hrecv, whose handler the layer calls when the message arrives. */
static double round_trip(int through_hrecv) {
  enum { rounds = 200, type = 20 };
  const long me = mynode();
  long word = 0;
  static long hbufs[max_nodes];
  gsync();
  const double t0 = dclock();
  for (int i = 0; i < rounds && me < 2; ++i) {
    if (me == 0) {
      csend(type, (char *)&word, sizeof word, 1, 0);
      crecv(type, (char *)&word, sizeof word);
    } else if (!through_hrecv) {
      crecv(type, (char *)&word, sizeof word);
      csend(type, (char *)&word, sizeof word, 0, 0);
    } else {
      handled_type[me] = -1;
      hrecv(type, (char *)&hbufs[me], sizeof word, on_message);
      while (handled_type[me] == -1) (void)iprobe(type + 1); /* any layer call runs handlers */
      csend(type, (char *)&hbufs[me], sizeof word, 0, 0);
    }
  }
  const double mean = (dclock() - t0) / rounds;
  gsync();
  return mean;
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "calls";
  const long me = mynode();
  char eight[8] = {0}, sixteen[16] = {0};
  if (strcmp(what, "calls") == 0) return calls();
  if (strcmp(what, "roundtrip") == 0) {
    const double plain = round_trip(0), handler = round_trip(1);
    if (me == 0)
      printf("NX round trip of 8 bytes: csend/crecv %.1f us, answered from hrecv %.1f us\n",
             plain * 1e6, handler * 1e6);
    return 0;
  }
  if (strcmp(what, "bad-length") == 0) {
    if (me == 1) {
      csend(3, sixteen, 16, 0, 0);
      csend(3, sixteen, 16, 0, 0);
    }
    if (me == 0) {
      if (_crecv(3, eight, 8) == -1 && errno == EQMSGLONG) printf("underscore form: EQMSGLONG\n");
      fflush(stdout);
      crecv(3, eight, 8);
    }
    gsync();
    return 0;
  }
  if (strcmp(what, "bad-type") == 0 && me == 0) irecv(-5, eight, 8);
  if (strcmp(what, "bad-mid") == 0 && me == 0) msgdone(4242);
  if (strcmp(what, "bad-node") == 0 && me == 0) csend(1, eight, 8, numnodes(), 0);
  if (strcmp(what, "dies") == 0) {
    if (me == 1) exit(3);
    crecv(1, eight, 8);
  }
  gsync();
  return 0;
}
