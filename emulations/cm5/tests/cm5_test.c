/* The CM-5 emulation's own tests, one program with a subcommand per property
 * family, run by cmmd-run (real processes) or as a job on the sim engine:
 *
 *   pingpong         every node asks every node; each request is answered
 *   reorder          a flood between one pair arrives once each, not in order
 *   flood            both nodes flood each other with requests that reply,
 *                    on tiny rings: only blocked senders that drain, and a
 *                    reply network apart, keep this from deadlocking
 *   packets          the rings' size is what CM5_TEST_PACKETS expects
 *                    (CMMD_network_packets), and a ring's worth arrives
 *   control          barrier, reductions, scans and broadcast
 *   scopy            receive ports: every node copies into node 0's ports
 *   segment          CMAM: a segment opened by a round trip, then CMAM_xfer
 *   bad-node, bad-handler, reply-from-reply, reply-outside, second-reply,
 *   control-in-handler   misuse the layer must reject (expected failures)
 *
 * Prints "PASS <name>" on node 0 when the property held. On the sim engine
 * every node is a fiber of one process, so statics are shared by all nodes:
 * each node's state is its entry of `nodes_state`. */
#include <cmam.h>
#include <cmaml.h>
#include <cmmd.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define self CMMD_self_address()
#define nodes CMMD_partition_size()

/* One node's state (on sim all nodes share this program's statics). */
enum { flood_count = 3000, max_nodes = 64 };
struct node_state {
  volatile int answers, arrived, echoes, copies_done, port_known, segments_done, segment_known,
      done;
  volatile long port_of_sender, segment_of_sender;
  int last_seen, inversions;
  unsigned char seen[flood_count];
  char *landing;
};
static struct node_state nodes_state[max_nodes];
#define my (&nodes_state[self])

static void check(int ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "node %d: FAILED: %s\n", self, what);
    exit(1);
  }
}

/* ---- pingpong -------------------------------------------------------------- */

static void answer(long from, long value, long b, long c) {
  (void)b, (void)c;
  check(value == self * 1000 + from, "an answer carries what was asked");
  ++my->answers;
}

static void ask(long from, long value, long b, long c) {
  (void)b, (void)c;
  CMAML_reply((int)from, answer, self, value, 0, 0);
}

static int pingpong(void) {
  for (int q = 0; q < nodes; ++q) CMAML_request(q, ask, self, self * 1000 + q, 0, 0);
  CMAML_poll_while_lt(&my->answers, nodes);
  CMMD_sync_with_nodes();
  return 1;
}

/* ---- reorder ----------------------------------------------------------------- */


static void numbered(long n, long a, long b, long c) {
  (void)a, (void)b, (void)c;
  check(n >= 0 && n < flood_count && !my->seen[n], "each packet arrives once");
  my->seen[n] = 1;
  if (n < my->last_seen) ++my->inversions;
  my->last_seen = (int)n;
  ++my->arrived;
}

static int reorder(void) {
  if (self == 1) {
    for (int i = 0; i < flood_count; ++i) CMAML_request(0, numbered, i, 0, 0, 0);
  }
  if (self == 0) {
    CMAML_poll_while_lt(&my->arrived, flood_count);
    printf("reorder: %d packets, %d arrived before one sent earlier\n", flood_count,
           my->inversions);
    check(my->inversions > 0, "the flood is not delivered in send order");
  }
  CMMD_sync_with_nodes();
  return 1;
}

/* ---- flood ------------------------------------------------------------------------ */

static void echoed(long a, long b, long c, long d) {
  (void)a, (void)b, (void)c, (void)d;
  ++my->echoes;
}

static void echo(long from, long b, long c, long d) {
  (void)b, (void)c, (void)d;
  CMAML_reply((int)from, echoed, 0, 0, 0, 0);
}

static int flood(void) {
  const int peer = (self + 1) % nodes;
  for (int i = 0; i < flood_count; ++i) CMAML_request(peer, echo, self, 0, 0, 0);
  CMAML_poll_while_lt(&my->echoes, flood_count);
  CMMD_sync_with_nodes();
  return 1;
}

/* ---- packets ---------------------------------------------------------------------- */

static void counted(long a, long b, long c, long d) {
  (void)a, (void)b, (void)c, (void)d;
  ++my->arrived;
}

/* The network holds what CMMD_network_packets says (CM5_TEST_PACKETS, the size the test
 * expects for its node count), and a full ring of that many requests from every node to the
 * next arrives whole. */
static int packets(void) {
  const char *expected = getenv("CM5_TEST_PACKETS");
  check(expected != NULL, "CM5_TEST_PACKETS names the expected ring size");
  const long n = CMMD_network_packets();
  if (n != atol(expected)) {
    fprintf(stderr, "node %d: CMMD_network_packets() is %ld, expected %s\n", self, n, expected);
    return 0;
  }
  const int count = n > 0 ? (int)n : flood_count;
  for (int i = 0; i < count; ++i) CMAML_request((self + 1) % nodes, counted, 0, 0, 0, 0);
  CMAML_poll_while_lt(&my->arrived, count);
  CMMD_sync_with_nodes();
  check(my->arrived == count, "every request arrived once");
  return 1;
}

/* ---- control --------------------------------------------------------------------- */

static int control(void) {
  CMMD_sync_with_nodes();
  const int p = nodes;
  check(CMMD_reduce_int(self + 1, CMMD_combiner_add) == p * (p + 1) / 2, "reduce add");
  check(CMMD_reduce_int(self, CMMD_combiner_max) == p - 1, "reduce max");
  check(CMMD_reduce_int(self - 5, CMMD_combiner_min) == -5, "reduce min");
  check(CMMD_reduce_uint(1u << self, CMMD_combiner_ior) == (1u << p) - 1, "reduce ior");
  check(CMMD_reduce_uint(1u << self, CMMD_combiner_xor) == (1u << p) - 1, "reduce xor");
  check(CMMD_reduce_int(~0 ^ (1 << self), CMMD_combiner_and) == (~0 ^ ((1 << p) - 1)), "reduce and");
  check(CMMD_reduce_float(0.5f, CMMD_combiner_fadd) == 0.5f * (float)p, "reduce fadd");
  check(CMMD_reduce_double(self * 0.25, CMMD_combiner_dmax) == (p - 1) * 0.25, "reduce dmax");
  check(CMMD_reduce_double(1.0, CMMD_combiner_dadd) == (double)p, "reduce dadd");
  /* scans: inclusive and exclusive, both directions, with segments of two */
  check(CMMD_scan_int(1, CMMD_combiner_add, CMMD_upward, CMMD_none, 0, 1) == self + 1, "scan up inclusive");
  check(CMMD_scan_int(1, CMMD_combiner_add, CMMD_upward, CMMD_none, 0, 0) == self, "scan up exclusive");
  check(CMMD_scan_int(1, CMMD_combiner_add, CMMD_downward, CMMD_none, 0, 1) == p - self, "scan down");
  check(CMMD_scan_int(1, CMMD_combiner_add, CMMD_upward, CMMD_segment_bit, self % 2 == 0, 1) ==
            self % 2 + 1, "segmented scan");
  check(CMMD_scan_int(self, CMMD_combiner_max, CMMD_upward, CMMD_none, 0, 0) ==
            (self == 0 ? -2147483647 - 1 : self - 1), "exclusive max scan starts at the identity");
  check(CMMD_scan_double(2.0, CMMD_combiner_dadd, CMMD_upward, CMMD_none, 0, 1) == 2.0 * (self + 1),
        "scan dadd");
  char message[1000];
  for (int i = 0; i < (int)sizeof message; ++i) message[i] = (char)(self == p - 1 ? i * 7 : 0);
  if (self == p - 1)
    CMMD_bc_to_nodes(message, (int)sizeof message);
  else
    CMMD_receive_bc_from_node(message, (int)sizeof message);
  for (int i = 0; i < (int)sizeof message; ++i) check(message[i] == (char)(i * 7), "broadcast");
  return 1;
}

/* ---- scopy -------------------------------------------------------------------------- */

enum { copy_bytes = 1003 };

static void port_full(int rport, void *arg2) {
  (void)arg2;
  CMAML_free_rport(rport);
  ++my->copies_done;
}

static void port_is(long rport, long a, long b, long c) {
  (void)a, (void)b, (void)c;
  my->port_of_sender = rport;
  my->port_known = 1;
}

static void open_port(long from, long a, long b, long c) {
  (void)a, (void)b, (void)c;
  const int rport = CMAML_allocate_rport();
  check(rport >= 0, "a receive port is free");
  CMAML_set_rport_addr(rport, my->landing + from * copy_bytes);
  CMAML_set_rport_byte_counter(rport, copy_bytes);
  CMAML_set_rport_handler(rport, port_full);
  CMAML_reply((int)from, port_is, rport, 0, 0, 0);
}

static int scopy(void) {
  my->landing = calloc((size_t)nodes, copy_bytes);
  char data[copy_bytes];
  for (int i = 0; i < copy_bytes; ++i) data[i] = (char)(self * 31 + i);
  CMMD_sync_with_nodes();
  CMAML_request(0, open_port, self, 0, 0, 0);
  CMAML_poll_while_lt(&my->port_known, 1);
  CMAML_scopy(0, (int)my->port_of_sender, 0, 0, data, copy_bytes, NULL, NULL);
  if (self == 0) {
    CMAML_poll_while_lt(&my->copies_done, nodes);
    for (int q = 0; q < nodes; ++q)
      for (int i = 0; i < copy_bytes; ++i)
        check(my->landing[q * copy_bytes + i] == (char)(q * 31 + i), "scopy delivers every byte");
  }
  CMMD_sync_with_nodes();
  return 1;
}

/* ---- CMAM segments ------------------------------------------------------------------ */

static void segment_end(void *info, void *base) {
  check(base == my->landing + (long)info * copy_bytes, "the end procedure gets the segment's base");
  ++my->segments_done;
}

static void segment_is(long segment, long a, long b, long c) {
  (void)a, (void)b, (void)c;
  my->segment_of_sender = segment;
  my->segment_known = 1;
}

static void open_segment(long from, long a, long b, long c) {
  (void)a, (void)b, (void)c;
  const int s = CMAM_open_segment(my->landing + from * copy_bytes, copy_bytes, segment_end, (void *)from);
  check(s >= 0, "a segment is free");
  CMAM_reply_4((int)from, segment_is, s, 0, 0, 0);
}

static int segment(void) {
  my->landing = calloc((size_t)nodes, copy_bytes);
  char data[copy_bytes];
  for (int i = 0; i < copy_bytes; ++i) data[i] = (char)(self * 17 + i);
  CMMD_sync_with_nodes();
  CMAM_4(0, open_segment, self, 0, 0, 0);
  while (!my->segment_known) CMAM_poll();
  /* Two halves, to exercise offsets. */
  CMAM_xfer(0, CMAM_SEG_ADDR(my->segment_of_sender, 0), data, 500);
  CMAM_xfer(0, CMAM_SEG_ADDR(my->segment_of_sender, 500), data + 500, copy_bytes - 500);
  if (self == 0) {
    CMAM_wait(&my->segments_done, nodes);
    check(my->segments_done == 0, "CMAM_wait subtracts what it waited for");
    for (int q = 0; q < nodes; ++q)
      for (int i = 0; i < copy_bytes; ++i)
        check(my->landing[q * copy_bytes + i] == (char)(q * 17 + i), "CMAM_xfer delivers every byte");
  }
  CMMD_sync_with_nodes();
  return 1;
}

/* ---- misuse ------------------------------------------------------------------------------ */

static void nothing(long a, long b, long c, long d) {
  (void)a, (void)b, (void)c, (void)d;
  ++my->done;
}
static void reply_again(long from, long b, long c, long d) {
  (void)b, (void)c, (void)d;
  CMAML_reply((int)from, nothing, 0, 0, 0, 0);
}
static void replying_reply(long from, long b, long c, long d) {
  (void)b, (void)c, (void)d;
  CMAML_reply((int)from, nothing, 0, 0, 0, 0); /* from a reply handler */
}
static void reply_with_reply(long from, long b, long c, long d) {
  (void)b, (void)c, (void)d;
  CMAML_reply((int)from, replying_reply, self, 0, 0, 0);
}
static void reply_twice(long from, long b, long c, long d) {
  (void)b, (void)c, (void)d;
  CMAML_reply((int)from, nothing, 0, 0, 0, 0);
  CMAML_reply((int)from, nothing, 0, 0, 0, 0);
}
static void barrier_inside(long a, long b, long c, long d) {
  (void)a, (void)b, (void)c, (void)d;
  CMMD_sync_with_nodes();
}
static long not_code[4];

static int misuse(const char *what) {
  if (self == 0) {
    if (strcmp(what, "bad-node") == 0) CMAML_request(nodes, nothing, 0, 0, 0, 0);
    if (strcmp(what, "bad-handler") == 0)
      CMAML_request(0, (CMAML_handler_t)(void *)not_code, 0, 0, 0, 0);
    if (strcmp(what, "reply-outside") == 0) CMAML_reply(0, nothing, 0, 0, 0, 0);
    if (strcmp(what, "reply-from-reply") == 0) CMAML_request(0, reply_with_reply, 0, 0, 0, 0);
    if (strcmp(what, "second-reply") == 0) CMAML_request(0, reply_twice, 0, 0, 0, 0);
    if (strcmp(what, "control-in-handler") == 0) CMAML_request(0, barrier_inside, 0, 0, 0, 0);
    (void)reply_again;
    for (;;) CMAML_poll(); /* the error ends the partition */
  }
  for (;;) CMAML_poll();
}

int main(int argc, char **argv) {
  check(nodes <= max_nodes, "at most 64 nodes in this test");
  my->last_seen = -1;
  if (argc != 2) {
    fprintf(stderr, "usage: cm5-test pingpong|reorder|flood|packets|control|scopy|segment|bad-...\n");
    return 2;
  }
  const char *what = argv[1];
  int ok;
  if (strcmp(what, "pingpong") == 0) ok = pingpong();
  else if (strcmp(what, "reorder") == 0) ok = reorder();
  else if (strcmp(what, "flood") == 0) ok = flood();
  else if (strcmp(what, "packets") == 0) ok = packets();
  else if (strcmp(what, "control") == 0) ok = control();
  else if (strcmp(what, "scopy") == 0) ok = scopy();
  else if (strcmp(what, "segment") == 0) ok = segment();
  else ok = misuse(what);
  if (ok && self == 0) printf("PASS %s on %d nodes\n", what, nodes);
  return ok ? 0 : 1;
}
