/* Tests of the MPL emulation, one program with subcommands (run on 3 tasks):
 *   calls  every call's behaviour, bad input included (MPL reports it by -1 / < -1
 *          and mperrno); prints "PASS mpl_calls" on task 0
 *   dies   task 1 exits with status 3 while task 0 waits in mpc_brecv: the job ends
 *   roundtrip  not a test: tasks 0 and 1 bounce a word, with mpc_bsend/mpc_brecv and
 *              then answering from an mpc_rcvncall handler's arrival; task 0 prints
 *              both mean round trips in microseconds (on the engine: virtual time)
 * The same program runs on MPI (a process per task) and on the sim engine
 * (every task a fiber of one process, sharing the statics: hence the arrays
 * indexed by task below). */
#include <mpl.h>

#include "../../nx/wire/wire.h" /* wire_seconds, for roundtrip */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { max_tasks = 64 };
static int failures[max_tasks];
#define CHECK(cond)                                                                     \
  do {                                                                                  \
    if (!(cond)) {                                                                      \
      fprintf(stderr, "task %d: check failed: %s (line %d)\n", me, #cond, __LINE__);    \
      ++failures[me];                                                                   \
    }                                                                                   \
  } while (0)

static int handled_id[max_tasks];
static void on_message(int *msgid) {
  int tasks, task;
  mpc_environ(&tasks, &task);
  handled_id[task] = *msgid;
}

static int calls(int me, int p) {
  if (p > max_tasks) return 1;
  handled_id[me] = -1;
  const int right = (me + 1) % p, left = (me + p - 1) % p;
  int value = 100 + me, got = -1, src, type, n, mid;

  /* Blocking send and receive around the ring; DONTCARE filled in. */
  CHECK(mpc_bsend((char *)&value, sizeof value, right, 7) == 0);
  src = DONTCARE, type = DONTCARE;
  CHECK(mpc_brecv((char *)&got, sizeof got, &src, &type, &n) == 0);
  CHECK(got == 100 + left && src == left && type == 7 && n == (int)sizeof got);

  /* Non-blocking: status -1 until done, then the byte count; order per pair. */
  int in[4], out[4], rid[4], sid[4], sources[4], types[4];
  for (int i = 0; i < 4; ++i) {
    sources[i] = left, types[i] = 9;
    CHECK(mpc_recv((char *)&in[i], sizeof in[i], &sources[i], &types[i], &rid[i]) == 0);
  }
  for (int i = 0; i < 4; ++i) {
    out[i] = me * 10 + i;
    CHECK(mpc_send((char *)&out[i], sizeof out[i], right, 9, &sid[i]) == 0);
  }
  for (int i = 0; i < 4; ++i) {
    int bytes;
    while ((bytes = mpc_status(rid[i])) == -1) {
    }
    CHECK(bytes == (int)sizeof(int) && in[i] == left * 10 + i);
  }
  int all = ALLMSG;
  CHECK(mpc_wait(&all, &n) == 0);

  /* probe, then receive from oneself. */
  CHECK(mpc_bsend((char *)&value, sizeof value, me, 11) == 0);
  do {
    src = DONTCARE, type = 11;
    CHECK(mpc_probe(&src, &type, &n) == 0);
  } while (n == -1);
  CHECK(src == me && type == 11 && n == (int)sizeof value);
  src = me, type = 11;
  CHECK(mpc_brecv((char *)&got, sizeof got, &src, &type, &n) == 0 && got == value);
  src = DONTCARE, type = 12;
  CHECK(mpc_probe(&src, &type, &n) == 0 && n == -1);

  /* rcvncall: the handler runs in a later call, not while locked. */
  static int hbufs[max_tasks], hsrcs[max_tasks], htypes[max_tasks];
  int *hbuf = &hbufs[me], *hsrc = &hsrcs[me], *htype = &htypes[me];
  *hsrc = DONTCARE, *htype = 14;
  int old, hid;
  CHECK(mpc_lockrnc(1, &old) == 0 && old == 0);
  CHECK(mpc_rcvncall((char *)hbuf, sizeof *hbuf, hsrc, htype, &hid, on_message) == 0);
  CHECK(mpc_bsend((char *)&value, sizeof value, right, 14) == 0);
  CHECK(mpc_sync(ALLGRP) == 0);
  CHECK(handled_id[me] == -1);
  CHECK(mpc_lockrnc(0, &old) == 0 && old == 1);
  while (handled_id[me] == -1) {
    src = DONTCARE, type = 15;
    mpc_probe(&src, &type, &n);
  }
  CHECK(handled_id[me] == hid && *hbuf == 100 + left && *hsrc == left);

  /* Bad input: -1 (or < -1 from mpc_status) and mperrno. */
  CHECK(mpc_send((char *)&value, 4, p, 5, &mid) == -1 && mperrno == MPE_TASK);
  CHECK(mpc_send((char *)&value, 4, right, -2, &mid) == -1 && mperrno == MPE_TYPE);
  CHECK(mpc_send((char *)&value, -1, right, 5, &mid) == -1 && mperrno == MPE_LEN);
  CHECK(mpc_status(77777) < -1 && mperrno == MPE_MSGID);
  CHECK(mpc_sync(3) == -1 && mperrno == MPE_GROUP);
  {
    char big[16] = {0}, small[8];
    CHECK(mpc_bsend(big, 16, right, 16) == 0);
    src = DONTCARE, type = 16;
    CHECK(mpc_recv(small, 8, &src, &type, &mid) == 0);
    int s;
    while ((s = mpc_status(mid)) == -1) {
    }
    CHECK(s < -1 && mperrno == MPE_TRUNC);
  }

  /* Global operations. */
  double d[2] = {me, 1.0}, dr[2];
  CHECK(mpc_combine(d, dr, sizeof d, d_vadd, ALLGRP) == 0);
  CHECK(dr[0] == p * (p - 1) / 2.0 && dr[1] == p);
  int im = me, ir;
  CHECK(mpc_combine(&im, &ir, sizeof im, i_vmax, ALLGRP) == 0 && ir == p - 1);
  CHECK(mpc_combine(&im, &ir, sizeof im, i_vmin, ALLGRP) == 0 && ir == 0);
  float f = 1.5f, fr;
  CHECK(mpc_combine(&f, &fr, sizeof f, s_vadd, ALLGRP) == 0 && fr == 1.5f * p);
  char word[8] = {0};
  if (me == 1) strcpy(word, "root1");
  CHECK(mpc_bcast(word, sizeof word, 1, ALLGRP) == 0 && strcmp(word, "root1") == 0);
  int sendv[16], recvv[16];
  for (int i = 0; i < p; ++i) sendv[i] = me * 100 + i;
  CHECK(mpc_index((char *)sendv, (char *)recvv, sizeof(int), ALLGRP) == 0);
  for (int i = 0; i < p; ++i) CHECK(recvv[i] == i * 100 + me);

  int total = failures[me], sum;
  mpc_combine(&total, &sum, sizeof total, i_vadd, ALLGRP);
  if (me == 0 && sum == 0) printf("PASS mpl_calls\n");
  return sum == 0 ? 0 : 1;
}

/* The seed's alternative to posted receives: MPL's mpc_rcvncall, whose
 * handler the layer calls when the message arrives. Timed with the wire's
 * clock, NX's dclock (MPL has no clock call of its own). */
static double round_trip(int me, int through_rcvncall) {
  enum { rounds = 200, type = 20 };
  int word = 0, src, type_io, n, hid;
  static int hbufs[max_tasks], hsrcs[max_tasks], htypes[max_tasks];
  mpc_sync(ALLGRP);
  const double t0 = wire_seconds();
  for (int i = 0; i < rounds && me < 2; ++i) {
    if (me == 0) {
      mpc_bsend((char *)&word, sizeof word, 1, type);
      src = 1, type_io = type;
      mpc_brecv((char *)&word, sizeof word, &src, &type_io, &n);
    } else if (!through_rcvncall) {
      src = 0, type_io = type;
      mpc_brecv((char *)&word, sizeof word, &src, &type_io, &n);
      mpc_bsend((char *)&word, sizeof word, 0, type);
    } else {
      handled_id[me] = -1;
      hsrcs[me] = 0, htypes[me] = type;
      mpc_rcvncall((char *)&hbufs[me], sizeof word, &hsrcs[me], &htypes[me], &hid, on_message);
      while (handled_id[me] == -1) { /* any layer call runs handlers */
        src = DONTCARE, type_io = type + 1;
        mpc_probe(&src, &type_io, &n);
      }
      mpc_bsend((char *)&hbufs[me], sizeof word, 0, type);
    }
  }
  const double mean = (wire_seconds() - t0) / rounds;
  mpc_sync(ALLGRP);
  return mean;
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "calls";
  int p, me;
  mpc_environ(&p, &me);
  if (strcmp(what, "calls") == 0) return calls(me, p);
  if (strcmp(what, "roundtrip") == 0) {
    const double plain = round_trip(me, 0), handler = round_trip(me, 1);
    if (me == 0)
      printf("MPL round trip of 4 bytes: mpc_bsend/mpc_brecv %.1f us, answered from "
             "mpc_rcvncall %.1f us\n", plain * 1e6, handler * 1e6);
    return 0;
  }
  if (strcmp(what, "dies") == 0) {
    if (me == 1) exit(3);
    char buf[8];
    int src = DONTCARE, type = 1, n;
    mpc_brecv(buf, 8, &src, &type, &n);
  }
  return 0;
}
