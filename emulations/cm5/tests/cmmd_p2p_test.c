/* CMMD's point-to-point in the CM-5 emulation (src/cmmd_p2p.c), against the results it must
 * give, on real processes (cmmd-run) and on the sim engine, at any number of nodes:
 *   - rings by CMMD_send_and_receive of 0 B to 256 KiB, and by blocking pairs; truncation;
 *   - wildcards: every node's two messages to node 0 taken with ANY_NODE/ANY_TAG, with
 *     CMMD_msg_sender, CMMD_msg_tag, CMMD_bytes_received;
 *   - one sender's messages with one tag received in the order sent, on networks that
 *     reorder (40 asynchronous sends from every node to node 0);
 *   - asynchronous receives posted first, with handlers and their arguments, CMMD_msg_done
 *     polled, the MCB queries, CMMD_free_mcb of a receive never matched, CMMD_msg_pending;
 *   - the receive ports running out: the 65th asynchronous receive is CMMD_ERRVAL with
 *     CMMD_ERR_NO_RPORTS;
 *   - an asynchronous send whose sender goes into a barrier while its receiver waits for the
 *     data (the sender copies it from the control network's wait).
 * Prints "PASS cmmd_p2p on N nodes" on node 0. On the sim engine the nodes share statics:
 * nothing mutable is static here. */
#include <cmaml.h>
#include <cmmd.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define self CMMD_self_address()
#define nodes CMMD_partition_size()

static void check(int ok, const char *what, int a, int b) {
  if (!ok) {
    fprintf(stderr, "node %d: FAILED: %s (%d, %d)\n", self, what, a, b);
    exit(1);
  }
}

static unsigned char pattern(int from, int tag, int i) {
  return (unsigned char)(from * 41 + tag * 13 + i * 5 + (i >> 9));
}

static void fill(unsigned char *p, int n, int from, int tag) {
  for (int i = 0; i < n; ++i) p[i] = pattern(from, tag, i);
}

static int intact(const unsigned char *p, int n, int from, int tag) {
  for (int i = 0; i < n; ++i)
    if (p[i] != pattern(from, tag, i)) return 0;
  return 1;
}

static void rings(void) {
  static const int sizes[] = {0, 1, 23, 24, 25, 1000, 65536, 262144};
  const int right = (self + 1) % nodes, left = (self + nodes - 1) % nodes;
  for (int k = 0; k < (int)(sizeof sizes / sizeof sizes[0]); ++k) {
    const int n = sizes[k];
    unsigned char *out = malloc((size_t)n + 1), *in = malloc((size_t)n + 1);
    fill(out, n, self, k);
    memset(in, 0xEE, (size_t)n + 1);
    check(CMMD_send_and_receive(left, k, in, n, right, k, out, n) == 1, "send_and_receive", n, 0);
    check(CMMD_bytes_received() == n && CMMD_msg_sender() == left && CMMD_msg_tag() == k,
          "ring: bytes, sender", CMMD_bytes_received(), CMMD_msg_sender());
    check(intact(in, n, left, k), "ring: data", n, left);
    if (nodes > 1) {
      memset(in, 0xEE, (size_t)n + 1);
      if (self % 2 == 0) {
        CMMD_send_block(right, 50 + k, out, n);
        CMMD_receive_block(left, 50 + k, in, n);
      } else {
        CMMD_receive_block(left, 50 + k, in, n);
        CMMD_send_block(right, 50 + k, out, n);
      }
      check(intact(in, n, left, k), "pair: data", n, left);
    }
    free(out);
    free(in);
  }
  {
    unsigned char out[100], in[40];
    fill(out, 100, self, 9);
    CMMD_send_and_receive(left, 9, in, 40, right, 9, out, 100);
    check(CMMD_bytes_received() == 40 && intact(in, 40, left, 9), "truncation",
          CMMD_bytes_received(), 40);
  }
  CMMD_sync_with_nodes();
}

static void wildcards(void) {
  if (self != 0) {
    for (int t = 0; t < 2; ++t) {
      int word[2] = {self, 2 * self + t};
      CMMD_send_block(0, 2 * self + t, word, (int)sizeof word);
    }
  } else {
    int *seen = calloc((size_t)nodes, sizeof(int));
    for (int i = 0; i < 2 * (nodes - 1); ++i) {
      int word[2];
      CMMD_receive_block(CMMD_ANY_NODE, CMMD_ANY_TAG, word, (int)sizeof word);
      check(CMMD_msg_sender() == word[0] && CMMD_msg_tag() == word[1] &&
                CMMD_bytes_received() == (int)sizeof word,
            "wildcard: sender and tag", CMMD_msg_sender(), word[0]);
      check(word[1] == 2 * word[0] + seen[word[0]], "wildcard: one sender's order", word[1], word[0]);
      seen[word[0]]++;
    }
    free(seen);
  }
  CMMD_sync_with_nodes();
}

enum { ordered = 40 };

static void order(void) {
  if (self != 0) {
    int values[ordered];
    CMMD_mcb m[ordered];
    for (int i = 0; i < ordered; ++i) {
      values[i] = self * 1000 + i;
      m[i] = CMMD_send_async(0, 7, &values[i], (int)sizeof(int), NULL, NULL);
      check(m[i] != CMMD_ERRVAL, "send_async", i, CMMD_get_errno());
    }
    for (int i = 0; i < ordered; ++i) {
      CMMD_msg_wait(m[i]);
      check(CMMD_mcb_bytes(m[i]) == (int)sizeof(int) && CMMD_mcb_node(m[i]) == 0 &&
                CMMD_mcb_tag(m[i]) == 7,
            "send mcb", CMMD_mcb_bytes(m[i]), CMMD_mcb_node(m[i]));
      CMMD_free_mcb(m[i]);
    }
  } else {
    int *next = calloc((size_t)nodes, sizeof(int));
    if (nodes > 1) {
      while (!CMMD_msg_pending(CMMD_ANY_NODE, 7)) continue;
      check(!CMMD_msg_pending(CMMD_ANY_NODE, 8), "nothing with tag 8", 0, 0);
    }
    for (int i = 0; i < ordered * (nodes - 1); ++i) {
      int v;
      CMMD_receive_block(CMMD_ANY_NODE, 7, &v, (int)sizeof v);
      const int from = CMMD_msg_sender();
      check(v == from * 1000 + next[from], "one sender's order", v, from * 1000 + next[from]);
      next[from]++;
    }
    free(next);
  }
  CMMD_sync_with_nodes();
}

struct counted {
  int calls;
  int last;
};

static void count(CMMD_mcb mcb, void *arg) {
  struct counted *c = arg;
  c->calls++;
  c->last = mcb;
}

static void asynchronous(void) {
  const int n = 500;
  unsigned char *out = malloc((size_t)n * (size_t)nodes), *in = malloc((size_t)n * (size_t)nodes);
  CMMD_mcb *r = malloc(sizeof(CMMD_mcb) * (size_t)nodes), *s = malloc(sizeof(CMMD_mcb) * (size_t)nodes);
  struct counted c = {0, -1};
  for (int k = 0; k < nodes; ++k) {
    r[k] = CMMD_receive_async(k, 3, in + (size_t)k * n, n, count, &c);
    check(r[k] != CMMD_ERRVAL, "receive_async", k, CMMD_get_errno());
  }
  CMMD_sync_with_nodes();
  for (int k = 0; k < nodes; ++k) {
    const int to = (self + k) % nodes;
    fill(out + (size_t)to * n, n, self, to);
    s[to] = CMMD_send_async(to, 3, out + (size_t)to * n, n, NULL, NULL);
  }
  for (int pending = nodes; pending > 0;) {
    pending = 0;
    for (int k = 0; k < nodes; ++k) pending += !CMMD_msg_done(r[k]) + !CMMD_msg_done(s[k]);
  }
  check(c.calls == nodes, "handlers", c.calls, nodes);
  for (int k = 0; k < nodes; ++k) {
    check(CMMD_mcb_node(r[k]) == k && CMMD_mcb_bytes(r[k]) == n && CMMD_mcb_tag(r[k]) == 3,
          "receive mcb", CMMD_mcb_node(r[k]), CMMD_mcb_bytes(r[k]));
    check(intact(in + (size_t)k * n, n, k, self), "async data", k, 0);
    CMMD_free_mcb(r[k]);
    CMMD_free_mcb(s[k]);
  }
  /* The receive ports run out; a receive never matched is withdrawn. */
  {
    CMMD_mcb held[CMAML_MAX_RPORTS + 1];
    int taken = 0;
    char sink;
    while (taken <= CMAML_MAX_RPORTS) {
      held[taken] = CMMD_receive_async(CMMD_ANY_NODE, 99, &sink, 1, NULL, NULL);
      if (held[taken] == CMMD_ERRVAL) break;
      ++taken;
    }
    check(taken == CMAML_MAX_RPORTS && CMMD_get_errno() == CMMD_ERR_NO_RPORTS,
          "receive ports run out", taken, CMMD_get_errno());
    for (int i = 0; i < taken; ++i) CMMD_free_mcb(held[i]);
    held[0] = CMMD_receive_async(CMMD_ANY_NODE, 99, &sink, 1, NULL, NULL);
    check(held[0] != CMMD_ERRVAL, "a port again after freeing", held[0], CMMD_get_errno());
    CMMD_free_mcb(held[0]);
  }
  CMMD_sync_with_nodes();
  free(out);
  free(in);
  free(r);
  free(s);
}

/* Node 0 sends to node 1 asynchronously and goes straight into a barrier; node 1 waits for the
 * message before it joins the barrier: node 0 must copy the granted data while it waits in the
 * control network. */
static void send_then_barrier(void) {
  if (nodes < 2) return;
  int word = 4242, got = 0;
  if (self == 0) {
    const CMMD_mcb m = CMMD_send_async(1, 11, &word, (int)sizeof word, NULL, NULL);
    CMMD_sync_with_nodes();
    CMMD_msg_wait(m);
    CMMD_free_mcb(m);
  } else {
    if (self == 1) {
      const CMMD_mcb m = CMMD_receive_async(0, 11, &got, (int)sizeof got, NULL, NULL);
      CMMD_msg_wait(m);
      CMMD_free_mcb(m);
      check(got == 4242, "the message sent before the barrier", got, 4242);
    }
    CMMD_sync_with_nodes();
  }
}

int main(void) {
  send_then_barrier();
  rings();
  wildcards();
  order();
  asynchronous();
  if (self == 0) printf("PASS cmmd_p2p on %d nodes\n", nodes);
  return 0;
}
