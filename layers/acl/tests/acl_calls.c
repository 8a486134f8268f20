/* Every call of ACLMPL against the results it must give, at any P >= 1 (layers/acl/README.md):
 *   - identity; synchronous rings by send_and_receive and by send_block/receive_block pairs,
 *     0 B to 16 MiB, each byte checked; truncation; send_and_receive to oneself;
 *   - wildcards: ANY_NODE and ANY_TAG receives of every other processor's messages, with
 *     msg_sender, msg_tag and bytes_received; tag matching out of order; one sender's
 *     messages of one tag received in the order sent (synchronous and asynchronous);
 *   - asynchronous: the pool filled from every processor at once toward processor 0 (three
 *     pools' worth, in and beyond a slot's size) while 0 sits in a barrier, then received in
 *     order per sender; receives posted first, handlers with their arguments, msg_done polled,
 *     free_mcb of a send not yet done and of a receive withdrawn, msg_pending, mcb queries;
 *   - global operations: ACLMPL_bc of 0 B to 1 MiB; ACLMPL_reduce and ACLMPL_reduce_swap with
 *     built-in operators, a commutative user operator and a non-commutative one (composition
 *     of affine maps),
 *     against the result folded in processor order, at several lengths.
 * Arguments: [messages per sender in the pool flood (200)] [largest ring message (16 MiB)].
 * No mutable static: it also runs on the sim. Prints "PASS acl_calls" on processor 0. */
#include <aclmpl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond, ...)                                                                   \
  do {                                                                                     \
    if (!(cond)) {                                                                         \
      fprintf(stderr, "node %d: check failed at line %d: %s: ", ACLMPL_self_address(),     \
              __LINE__, #cond);                                                            \
      fprintf(stderr, __VA_ARGS__);                                                        \
      fprintf(stderr, "\n");                                                               \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

static unsigned char pattern(int from, int tag, size_t i) {
  return (unsigned char)(from * 37 + tag * 11 + i * 7 + (i >> 10));
}

static void fill(unsigned char *p, size_t n, int from, int tag) {
  size_t i;
  for (i = 0; i < n; ++i) p[i] = pattern(from, tag, i);
}

static size_t first_wrong(const unsigned char *p, size_t n, int from, int tag) {
  size_t i;
  for (i = 0; i < n; ++i)
    if (p[i] != pattern(from, tag, i)) return i;
  return n;
}

static void *xmalloc(size_t n) {
  void *p = malloc(n > 0 ? n : 1);
  CHECK(p != NULL, "no memory for %zu bytes", n);
  return p;
}

static const int sizes[] = {0, 1, 8, 100, 4095, 4096, 4097, 65536, 200000, 1 << 20, 16 << 20};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

static void rings(int me, int p, int max_bytes) {
  int k;
  const int right = (me + 1) % p, left = (me + p - 1) % p;
  for (k = 0; k < NSIZES && sizes[k] <= max_bytes; ++k) {
    const size_t n = (size_t)sizes[k];
    unsigned char *out = xmalloc(n), *in = xmalloc(n);
    fill(out, n, me, k);
    memset(in, 0xEE, n);
    ACLMPL_send_and_receive(left, k, in, (int)n, right, k, out, (int)n);
    CHECK(ACLMPL_bytes_received() == (int)n && ACLMPL_msg_sender() == left && ACLMPL_msg_tag() == k,
          "send_and_receive of %zu B: %d bytes from %d tag %d", n, ACLMPL_bytes_received(),
          ACLMPL_msg_sender(), ACLMPL_msg_tag());
    CHECK(first_wrong(in, n, left, k) == n, "ring of %zu B: byte %zu wrong", n, first_wrong(in, n, left, k));
    /* The same by blocking pairs: even processors send first, odd ones receive first. */
    if (p > 1) {
      memset(in, 0xEE, n);
      if (me % 2 == 0) {
        ACLMPL_send_block(right, 100 + k, out, (int)n);
        ACLMPL_receive_block(left, 100 + k, in, (int)n);
      } else {
        ACLMPL_receive_block(left, 100 + k, in, (int)n);
        ACLMPL_send_block(right, 100 + k, out, (int)n);
      }
      CHECK(first_wrong(in, n, left, k) == n, "pair of %zu B: byte %zu wrong", n,
            first_wrong(in, n, left, k));
    }
    free(out);
    free(in);
  }
  {
    /* A message longer than the buffer is cut; oneself as partner. */
    unsigned char out[100], in[60];
    fill(out, sizeof out, me, 7);
    ACLMPL_send_and_receive(left, 7, in, (int)sizeof in, right, 7, out, (int)sizeof out);
    CHECK(ACLMPL_bytes_received() == 60 && first_wrong(in, 60, left, 7) == 60, "truncation: %d",
          ACLMPL_bytes_received());
    ACLMPL_send_and_receive(me, 8, in, (int)sizeof in, me, 8, out, 40);
    CHECK(ACLMPL_bytes_received() == 40 && ACLMPL_msg_sender() == me &&
              first_wrong(in, 40, me, 7) == 40,
          "to oneself: %d bytes", ACLMPL_bytes_received());
  }
}

/* Every other processor sends to 0 twice, tags 2*s and 2*s+1; 0 receives them all first with
 * ANY_NODE and ANY_TAG, then with ANY_NODE and a tag, then a node with ANY_TAG. */
static void wildcards(int me, int p) {
  int round;
  for (round = 0; round < 3; ++round) {
    if (me != 0) {
      int t;
      for (t = 0; t < 2; ++t) {
        int word[2];
        word[0] = me;
        word[1] = 2 * me + t;
        ACLMPL_send_block(0, 2 * me + t, word, (int)sizeof word);
      }
    } else {
      int *seen = calloc((size_t)p, sizeof(int)), i, s;
      for (i = 0; i < 2 * (p - 1); ++i) {
        int word[2], node = ACLMPL_ANY_NODE, tag = ACLMPL_ANY_TAG;
        if (round == 1) {
          tag = i < p - 1 ? 2 * (i + 1) : 2 * (i - (p - 1) + 1) + 1; /* even tags first */
        } else if (round == 2) {
          node = 1 + i / 2;
        }
        ACLMPL_receive_block(node, tag, word, (int)sizeof word);
        CHECK(ACLMPL_msg_sender() == word[0] && ACLMPL_msg_tag() == word[1] &&
                  ACLMPL_bytes_received() == (int)sizeof word,
              "round %d: sender %d tag %d, message says %d %d", round, ACLMPL_msg_sender(),
              ACLMPL_msg_tag(), word[0], word[1]);
        CHECK(tag == ACLMPL_ANY_TAG || word[1] == tag, "tag %d asked, %d came", tag, word[1]);
        CHECK(node == ACLMPL_ANY_NODE || word[0] == node, "node %d asked, %d came", node, word[0]);
        /* One sender's two messages arrive in order under ANY_TAG. */
        if (tag == ACLMPL_ANY_TAG) CHECK(word[1] == 2 * word[0] + seen[word[0]], "out of order");
        seen[word[0]]++;
      }
      for (s = 1; s < p; ++s) CHECK(seen[s] == 2, "round %d: %d messages from %d", round, seen[s], s);
      free(seen);
    }
    ACLMPL_sync_with_nodes();
  }
}

struct counts {
  int calls;
  int last_mcb;
};

static void count_handler(ACLMPL_mcb mcb, void *arg) {
  struct counts *c = arg;
  c->calls++;
  c->last_mcb = mcb;
}

/* The pool filled from everyone at once: each processor sends `per` messages to 0 (lengths
 * cycling through small, slot-sized and larger than a slot), tags cycling 0..2, while 0 waits
 * in a barrier; then 0 receives them by tag, then the rest in order. */
static void pool_flood(int me, int p, int per) {
  const int lengths[] = {8, 0, 1000, 4096, 5000, 70000};
  const int nlengths = (int)(sizeof lengths / sizeof lengths[0]);
  int i;
  if (me != 0) {
    ACLMPL_mcb *m = xmalloc(sizeof(ACLMPL_mcb) * (size_t)per);
    unsigned char **bufs = xmalloc(sizeof(unsigned char *) * (size_t)per);
    for (i = 0; i < per; ++i) {
      const int n = lengths[i % nlengths];
      bufs[i] = xmalloc((size_t)n + sizeof(int));
      memcpy(bufs[i], &i, sizeof i);
      fill(bufs[i] + sizeof(int), (size_t)n, me, i);
      m[i] = ACLMPL_send_async(0, i % 3, bufs[i], n + (int)sizeof(int), NULL, NULL);
    }
    ACLMPL_sync_with_nodes();
    for (i = 0; i < per; ++i) {
      ACLMPL_msg_wait(m[i]);
      CHECK(ACLMPL_mcb_bytes(m[i]) == lengths[i % nlengths] + (int)sizeof(int) &&
                ACLMPL_mcb_node(m[i]) == 0 && ACLMPL_mcb_tag(m[i]) == i % 3,
            "send %d: mcb says %d bytes to %d tag %d", i, ACLMPL_mcb_bytes(m[i]),
            ACLMPL_mcb_node(m[i]), ACLMPL_mcb_tag(m[i]));
      ACLMPL_free_mcb(m[i]);
      free(bufs[i]);
    }
    free(m);
    free(bufs);
  } else {
    int *next = calloc((size_t)p * 3, sizeof(int)), s, t, got;
    unsigned char *in = xmalloc(70000 + sizeof(int));
    ACLMPL_sync_with_nodes();
    if (p > 1 && per >= 3)
      while (!ACLMPL_msg_pending(ACLMPL_ANY_NODE, 2)) continue; /* until one has landed */
    /* Tag 2 first from every sender, then 0 and 1 from anyone. */
    for (t = 2; t >= 0; t = t == 2 ? 0 : t + 1) {
      for (s = 1; s < p; ++s) {
        int expected = t;
        for (got = 0; expected < per; expected += 3, ++got) {
          int n, idx;
          const int from = t == 2 ? s : ACLMPL_ANY_NODE;
          n = ACLMPL_receive(from, t, in, 70000 + (int)sizeof(int));
          memcpy(&idx, in, sizeof idx);
          CHECK(ACLMPL_msg_tag() == t && idx % 3 == t, "tag %d wanted, %d came (index %d)", t,
                ACLMPL_msg_tag(), idx);
          CHECK(idx == next[ACLMPL_msg_sender() * 3 + t] * 3 + t,
                "from %d tag %d: message %d before %d", ACLMPL_msg_sender(), t, idx,
                next[ACLMPL_msg_sender() * 3 + t] * 3 + t);
          next[ACLMPL_msg_sender() * 3 + t]++;
          CHECK(n == lengths[idx % nlengths] + (int)sizeof(int), "length %d", n);
          CHECK(first_wrong(in + sizeof(int), (size_t)n - sizeof(int), ACLMPL_msg_sender(), idx) ==
                    (size_t)n - sizeof(int),
                "message %d from %d: wrong byte", idx, ACLMPL_msg_sender());
        }
        /* Tags 0 and 1 from ANY_NODE: as many passes as senders, in any order of senders. */
      }
      if (t == 1) break;
    }
    for (s = 1; s < p; ++s)
      for (t = 0; t < 3; ++t) CHECK(next[s * 3 + t] * 3 + t >= per, "from %d tag %d: %d", s, t, next[s * 3 + t]);
    CHECK(!ACLMPL_msg_pending(ACLMPL_ANY_NODE, ACLMPL_ANY_TAG), "left over");
    free(in);
    free(next);
  }
  ACLMPL_sync_with_nodes();
}

/* Receives posted first, with handlers; everyone sends to everyone (itself included). */
static void all_to_all_async(int me, int p) {
  const int n = 3000;
  unsigned char *out = xmalloc((size_t)n * (size_t)p), *in = xmalloc((size_t)n * (size_t)p);
  ACLMPL_mcb *r = xmalloc(sizeof(ACLMPL_mcb) * (size_t)p), *s = xmalloc(sizeof(ACLMPL_mcb) * (size_t)p);
  struct counts c = {0, -1};
  int k, pending = p;
  for (k = 0; k < p; ++k) r[k] = ACLMPL_receive_async(k, 9, in + (size_t)k * n, n, count_handler, &c);
  ACLMPL_sync_with_nodes();
  for (k = 0; k < p; ++k) {
    const int to = (me + k) % p;
    fill(out + (size_t)to * n, (size_t)n, me, 9 + to);
    s[to] = ACLMPL_send_async(to, 9, out + (size_t)to * n, n, NULL, NULL);
  }
  while (pending > 0) {
    pending = 0;
    for (k = 0; k < p; ++k) pending += !ACLMPL_msg_done(r[k]);
  }
  CHECK(c.calls == p, "%d handlers ran for %d receives", c.calls, p);
  for (k = 0; k < p; ++k) {
    CHECK(ACLMPL_mcb_node(r[k]) == k && ACLMPL_mcb_bytes(r[k]) == n && ACLMPL_mcb_tag(r[k]) == 9,
          "receive %d: from %d, %d bytes", k, ACLMPL_mcb_node(r[k]), ACLMPL_mcb_bytes(r[k]));
    CHECK(first_wrong(in + (size_t)k * n, (size_t)n, k, 9 + me) == (size_t)n, "from %d: wrong", k);
    ACLMPL_free_mcb(r[k]);
    ACLMPL_free_mcb(s[k]);
  }
  /* A receive withdrawn before anything came; a large send freed before it is done. */
  {
    ACLMPL_mcb w = ACLMPL_receive_async(ACLMPL_ANY_NODE, 77, in, n, NULL, NULL);
    ACLMPL_free_mcb(w);
    if (p > 1) {
      const int big = 100000;
      unsigned char *b = xmalloc((size_t)big);
      if (me == 0) {
        fill(b, (size_t)big, me, 5);
        ACLMPL_free_mcb(ACLMPL_send_async(1, 78, b, big, NULL, NULL));
        ACLMPL_send_block(1, 79, NULL, 0); /* 1 has received it when this completes */
      } else if (me == 1) {
        CHECK(ACLMPL_receive(0, 78, b, big) == big && first_wrong(b, (size_t)big, 0, 5) == (size_t)big,
              "the freed send's data");
        ACLMPL_receive_block(0, 79, NULL, 0);
        CHECK(ACLMPL_bytes_received() == 0, "an empty message");
      }
      free(b);
    }
  }
  ACLMPL_sync_with_nodes();
  free(out);
  free(in);
  free(r);
  free(s);
}

/* Affine maps x -> a x + b (mod 2^64), composed: (f . g)(x) = f(g(x)). Not commutative. */
struct affine {
  unsigned long a, b;
};

static void compose(void *inout, const void *in, int count) {
  struct affine *f = inout;
  const struct affine *g = in;
  int k;
  for (k = 0; k < count; ++k) {
    struct affine r;
    r.a = f[k].a * g[k].a;
    r.b = f[k].a * g[k].b + f[k].b;
    f[k] = r;
  }
}

/* A user operator that commutes: the larger magnitude (ties to the positive). */
static void max_magnitude(void *inout, const void *in, int count) {
  int *a = inout, k;
  const int *b = in;
  for (k = 0; k < count; ++k) {
    const int x = a[k] < 0 ? -a[k] : a[k], y = b[k] < 0 ? -b[k] : b[k];
    if (y > x || (y == x && b[k] > a[k])) a[k] = b[k];
  }
}

static int magnitude_operand(int proc, int k) { return ((proc * 37 + k * 11) % 23 - 11) * (proc % 2 ? 1 : -1); }

static struct affine map_of(int proc, int k) {
  struct affine m;
  m.a = 2u * (unsigned long)(proc * 131 + k) + 3u;
  m.b = (unsigned long)(proc * 7 + k * 5 + 1);
  return m;
}

static void global_operations(int me, int p) {
  const int bc_sizes[] = {0, 8, 1000, 100000, 1 << 20};
  const int counts[] = {0, 1, 3, 17, 1000, 5000};
  int i, k;
  for (i = 0; i < (int)(sizeof bc_sizes / sizeof bc_sizes[0]); ++i) {
    const size_t n = (size_t)bc_sizes[i];
    unsigned char *b = xmalloc(n);
    if (me == 0) fill(b, n, 0, i);
    else memset(b, 0, n);
    ACLMPL_bc(b, (int)n);
    CHECK(first_wrong(b, n, 0, i) == n, "bc of %zu B", n);
    free(b);
  }
  for (i = 0; i < (int)(sizeof counts / sizeof counts[0]); ++i) {
    const int n = counts[i];
    int swap;
    for (swap = 0; swap < 2; ++swap) {
      int (*reduce)(void *, int, int, ACLMPL_op) = swap ? ACLMPL_reduce_swap : ACLMPL_reduce;
      long *l = xmalloc(sizeof(long) * (size_t)n);
      double *d = xmalloc(sizeof(double) * (size_t)n);
      struct affine *f = xmalloc(sizeof(struct affine) * (size_t)n);
      int *m = xmalloc(sizeof(int) * (size_t)n);
      for (k = 0; k < n; ++k) {
        m[k] = magnitude_operand(me, k);
        l[k] = (long)(me + 1) * (k + 1);
        d[k] = (double)((me * 7 + k) % 13);
        f[k] = map_of(me, k);
      }
      reduce(l, n, (int)sizeof(long), ACLMPL_op_add_long);
      reduce(d, n, (int)sizeof(double), ACLMPL_op_max_double);
      reduce(f, n, (int)sizeof(struct affine), compose);
      reduce(m, n, (int)sizeof(int), max_magnitude);
      if (me == 0) {
        for (k = 0; k < n; ++k) {
          int q;
          double dmax = 0;
          struct affine e = map_of(0, k);
          int mm = magnitude_operand(0, k);
          for (q = 1; q < p; ++q) {
            const int v = magnitude_operand(q, k);
            max_magnitude(&mm, &v, 1);
          }
          CHECK(m[k] == mm, "%s commutative user operator at %d: %d, not %d", swap ? "swap" : "tree", k, m[k], mm);
          for (q = 0; q < p; ++q) dmax = (double)((q * 7 + k) % 13) > dmax ? (double)((q * 7 + k) % 13) : dmax;
          for (q = 1; q < p; ++q) {
            struct affine g = map_of(q, k);
            compose(&e, &g, 1);
          }
          CHECK(l[k] == (long)p * (p + 1) / 2 * (k + 1), "%s add at %d: %ld", swap ? "swap" : "tree", k, l[k]);
          CHECK(d[k] == dmax, "%s max at %d: %g, not %g", swap ? "swap" : "tree", k, d[k], dmax);
          CHECK(f[k].a == e.a && f[k].b == e.b, "%s user operator at %d of %d: not in processor order",
                swap ? "swap" : "tree", k, n);
        }
      }
      free(l);
      free(d);
      free(f);
      free(m);
    }
  }
}

int main(int argc, char **argv) {
  int me, p;
  ACLMPL_init(&argc, &argv);
  me = ACLMPL_self_address();
  p = ACLMPL_partition_size();
  CHECK(p >= 1 && me >= 0 && me < p, "self %d of %d", me, p);
  rings(me, p, argc > 2 ? atoi(argv[2]) : 16 << 20);
  ACLMPL_sync_with_nodes();
  wildcards(me, p);
  pool_flood(me, p, argc > 1 ? atoi(argv[1]) : 200);
  all_to_all_async(me, p);
  global_operations(me, p);
  ACLMPL_sync_with_nodes();
  if (me == 0) printf("PASS acl_calls\n");
  ACLMPL_finalize();
  return 0;
}
