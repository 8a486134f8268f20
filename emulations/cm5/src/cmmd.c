/* CMMD's identity calls and the control network: barrier, reductions, scans
 * and broadcast, each one round (or, for a long broadcast, a few) of the
 * wire's split-phase control exchange, during which the node keeps draining
 * its data networks. */
#include "cm5_layer.h"

#include <cmmd.h>

#include <float.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The control network's own time per operation, charged on sim (the CM-5's
 * control network: a barrier in about 3 us, a combine in a few more; Luna
 * 1994 §4.3.1 gives 3 us for its broadcast), unless the machine model gives
 * its collective hardware other figures (cm5_wire_collective_ns). */
static const double barrier_ns = 3000, combine_ns = 5000, scan_ns = 6000, broadcast_ns = 3000;

int CMMD_self_address(void) {
  (void)cm5_node();
  return cm5_wire_self();
}

int CMMD_partition_size(void) {
  (void)cm5_node();
  return cm5_wire_nodes();
}

double CMMD_time_us(void) {
  (void)cm5_node();
  return cm5_wire_now_us();
}

long CMMD_network_packets(void) {
  (void)cm5_node();
  return cm5_wire_capacity();
}

/* Each round carries the operation's kind ahead of the contribution, so that
 * nodes in different operations (a barrier here, a reduction there) are an
 * error naming the node rather than a misread contribution. */
enum operation { op_barrier = 1, op_reduce, op_scan, op_broadcast };
static const char *const operation_names[] = {"", "CMMD_sync_with_nodes", "a reduction", "a scan",
                                              "a broadcast"};
struct round {
  uint32_t kind;
  uint32_t len;
  unsigned char data[CM5_CONTROL_BYTES - 8];
};

/* One control-network round: contribute `mine`, get everyone's in `all`. */
static void exchange(const char *who, enum operation kind, const void *mine, size_t len, void *all,
                     double cost_ns) {
  struct cm5_node *n = cm5_node();
  if (n->context != CM5_IN_NOTHING)
    cm5_fail("%s: called inside a handler (the control network cannot be used from one)", who);
  const int nodes = cm5_wire_nodes();
  const size_t stride = 8 + len;
  struct round my_round;
  my_round.kind = (uint32_t)kind;
  my_round.len = (uint32_t)len;
  memcpy(my_round.data, mine, len);
  unsigned char *rounds = malloc(stride * (size_t)nodes);
  if (rounds == NULL) cm5_fail("%s: out of memory", who);
  const uint64_t epoch = ++n->control_epoch;
  cm5_wire_control_post(epoch, &my_round, stride);
  unsigned idle = 0;
  while (!cm5_wire_control_test(epoch, rounds, stride, cost_ns)) {
    /* Point-to-point keeps moving too: a node that started an asynchronous send and went into
     * a barrier copies the data its receiver granted meanwhile, or the receiver would wait
     * for it while this node waits for the receiver in the barrier. */
    if (cm5_p2p_progress() + cm5_drain_some(n, CM5_BOTH) != 0)
      idle = 0;
    else
      cm5_wire_control_pause(idle++);
  }
  for (int q = 0; q < nodes; ++q) {
    struct round theirs;
    memcpy(&theirs, rounds + (size_t)q * stride, 8);
    if (theirs.kind != (uint32_t)kind || theirs.len != (uint32_t)len) {
      free(rounds);
      cm5_fail("%s: node %d is in %s (every node must call the same control-network "
               "operations in the same order)", who, q,
               theirs.kind <= op_broadcast ? operation_names[theirs.kind] : "another operation");
    }
    memcpy((char *)all + (size_t)q * len, rounds + (size_t)q * stride + 8, len);
  }
  free(rounds);
}

/* Buffers live on the heap, not in statics: on sim every simulated node runs
 * in this one process and may switch inside an exchange. */
static void *must_allocate(size_t bytes) {
  void *p = malloc(bytes);
  if (p == NULL) cm5_fail("out of memory (%zu bytes for a control-network operation)", bytes);
  return p;
}

void CMMD_sync_with_nodes(void) {
  char nothing = 0;
  char *all = must_allocate((size_t)cm5_wire_nodes());
  exchange("CMMD_sync_with_nodes", op_barrier, &nothing, 1, all,
           cm5_wire_collective_ns("barrier", barrier_ns));
  free(all);
}

/* ---- reductions and scans --------------------------------------------------- */

enum value_type { type_int, type_uint, type_float, type_double };
static const char *const type_names[] = {"int", "uint", "float", "double"};

struct contribution {
  uint32_t type, combiner, direction, smode;
  int32_t sbit, inclusive;
  union {
    int i;
    unsigned u;
    float f;
    double d;
  } value;
};

typedef union {
  int i;
  unsigned u;
  float f;
  double d;
} value_t;

static int combiner_fits(enum value_type t, CMMD_combiner_t c) {
  switch (c) {
    case CMMD_combiner_add: return t == type_int;
    case CMMD_combiner_uadd: return t == type_uint;
    case CMMD_combiner_fadd: return t == type_float;
    case CMMD_combiner_dadd: return t == type_double;
    case CMMD_combiner_max:
    case CMMD_combiner_min: return 1;
    case CMMD_combiner_umax:
    case CMMD_combiner_umin: return t == type_uint;
    case CMMD_combiner_dmax:
    case CMMD_combiner_dmin: return t == type_double;
    case CMMD_combiner_ior:
    case CMMD_combiner_xor:
    case CMMD_combiner_and: return t == type_int || t == type_uint;
  }
  return 0;
}

#define COMBINE(field, a, b, c)                                      \
  switch (c) {                                                       \
    case CMMD_combiner_add:                                          \
    case CMMD_combiner_uadd:                                         \
    case CMMD_combiner_fadd:                                         \
    case CMMD_combiner_dadd: r.field = a.field + b.field; break;     \
    case CMMD_combiner_max:                                          \
    case CMMD_combiner_umax:                                         \
    case CMMD_combiner_dmax: r.field = a.field < b.field ? b.field : a.field; break; \
    case CMMD_combiner_min:                                          \
    case CMMD_combiner_umin:                                         \
    case CMMD_combiner_dmin: r.field = b.field < a.field ? b.field : a.field; break; \
    default: break;                                                  \
  }

static value_t combine(enum value_type t, CMMD_combiner_t c, value_t a, value_t b) {
  value_t r = a;
  switch (t) {
    case type_int:
      if (c == CMMD_combiner_ior) r.i = a.i | b.i;
      else if (c == CMMD_combiner_xor) r.i = a.i ^ b.i;
      else if (c == CMMD_combiner_and) r.i = a.i & b.i;
      else if (c == CMMD_combiner_add) r.u = a.u + b.u; /* wraps, as the hardware did */
      else { COMBINE(i, a, b, c) }
      break;
    case type_uint:
      if (c == CMMD_combiner_ior) r.u = a.u | b.u;
      else if (c == CMMD_combiner_xor) r.u = a.u ^ b.u;
      else if (c == CMMD_combiner_and) r.u = a.u & b.u;
      else { COMBINE(u, a, b, c) }
      break;
    case type_float: { COMBINE(f, a, b, c) } break;
    case type_double: { COMBINE(d, a, b, c) } break;
  }
  return r;
}

static value_t identity(enum value_type t, CMMD_combiner_t c) {
  value_t r;
  memset(&r, 0, sizeof r);
  const int is_max = c == CMMD_combiner_max || c == CMMD_combiner_umax || c == CMMD_combiner_dmax;
  const int is_min = c == CMMD_combiner_min || c == CMMD_combiner_umin || c == CMMD_combiner_dmin;
  switch (t) {
    case type_int: r.i = is_max ? INT_MIN : is_min ? INT_MAX : c == CMMD_combiner_and ? -1 : 0; break;
    case type_uint: r.u = is_min || c == CMMD_combiner_and ? UINT_MAX : 0; break;
    case type_float: r.f = is_max ? -FLT_MAX : is_min ? FLT_MAX : 0.0f; break;
    case type_double: r.d = is_max ? -DBL_MAX : is_min ? DBL_MAX : 0.0; break;
  }
  return r;
}

/* Contribute, check that every node asked for the same operation, and leave
 * everyone's contributions in `all`. */
static struct contribution *gather(const char *who, enum operation kind, struct contribution *mine,
                                   double cost_ns) {
  if (mine->combiner > CMMD_combiner_and || !combiner_fits(mine->type, mine->combiner))
    cm5_fail("%s: combiner %u does not apply to %s values", who, mine->combiner,
             type_names[mine->type]);
  const int nodes = cm5_wire_nodes();
  struct contribution *all = must_allocate(sizeof *all * (size_t)nodes);
  exchange(who, kind, mine, sizeof *mine, all, cost_ns);
  for (int q = 0; q < nodes; ++q) {
    if (all[q].type != mine->type || all[q].combiner != mine->combiner ||
        all[q].direction != mine->direction || all[q].smode != mine->smode ||
        all[q].inclusive != mine->inclusive)
      cm5_fail("%s: node %d called a different control-network operation (%s, combiner %u)", who,
               q, type_names[all[q].type], all[q].combiner);
  }
  return all;
}

static value_t reduce(const char *who, enum value_type t, value_t v, CMMD_combiner_t c) {
  struct contribution mine;
  memset(&mine, 0, sizeof mine);
  mine.type = t;
  mine.combiner = (uint32_t)c;
  memcpy(&mine.value, &v, sizeof v);
  struct contribution *all = gather(who, op_reduce, &mine,
                                         cm5_wire_collective_ns("reduce", combine_ns));
  value_t r;
  memcpy(&r, &all[0].value, sizeof r);
  for (int q = 1; q < cm5_wire_nodes(); ++q) {
    value_t x;
    memcpy(&x, &all[q].value, sizeof x);
    r = combine(t, c, r, x);
  }
  free(all);
  return r;
}

int CMMD_reduce_int(int value, CMMD_combiner_t c) {
  value_t v = {.i = value};
  return reduce("CMMD_reduce_int", type_int, v, c).i;
}
unsigned CMMD_reduce_uint(unsigned value, CMMD_combiner_t c) {
  value_t v = {.u = value};
  return reduce("CMMD_reduce_uint", type_uint, v, c).u;
}
float CMMD_reduce_float(float value, CMMD_combiner_t c) {
  value_t v = {.f = value};
  return reduce("CMMD_reduce_float", type_float, v, c).f;
}
double CMMD_reduce_double(double value, CMMD_combiner_t c) {
  value_t v = {.d = value};
  return reduce("CMMD_reduce_double", type_double, v, c).d;
}

static value_t scan(const char *who, enum value_type t, value_t v, CMMD_combiner_t c,
                    CMMD_scan_direction_t direction, CMMD_segment_mode_t smode, int sbit,
                    int inclusive) {
  if (direction != CMMD_upward && direction != CMMD_downward)
    cm5_fail("%s: direction %d is neither CMMD_upward nor CMMD_downward", who, (int)direction);
  if (smode != CMMD_none && smode != CMMD_segment_bit)
    cm5_fail("%s: segment mode %d is neither CMMD_none nor CMMD_segment_bit", who, (int)smode);
  struct contribution mine;
  memset(&mine, 0, sizeof mine);
  mine.type = t;
  mine.combiner = (uint32_t)c;
  mine.direction = (uint32_t)direction;
  mine.smode = (uint32_t)smode;
  mine.sbit = sbit != 0;
  mine.inclusive = inclusive != 0;
  memcpy(&mine.value, &v, sizeof v);
  struct contribution *all = gather(who, op_scan, &mine,
                                         cm5_wire_collective_ns("scan", scan_ns));
  const int nodes = cm5_wire_nodes(), self = cm5_wire_self();
  const int step = direction == CMMD_upward ? 1 : -1;
  const int first = direction == CMMD_upward ? 0 : nodes - 1;
  /* Walk from the scan's start to this node, restarting at segment bits. */
  value_t r = identity(t, c);
  for (int q = first;; q += step) {
    if (smode == CMMD_segment_bit && all[q].sbit) r = identity(t, c);
    value_t x;
    memcpy(&x, &all[q].value, sizeof x);
    if (q == self) {
      if (inclusive) r = combine(t, c, r, x);
      break;
    }
    r = combine(t, c, r, x);
  }
  free(all);
  return r;
}

int CMMD_scan_int(int value, CMMD_combiner_t c, CMMD_scan_direction_t d, CMMD_segment_mode_t m,
                  int sbit, int inclusive) {
  value_t v = {.i = value};
  return scan("CMMD_scan_int", type_int, v, c, d, m, sbit, inclusive).i;
}
unsigned CMMD_scan_uint(unsigned value, CMMD_combiner_t c, CMMD_scan_direction_t d,
                        CMMD_segment_mode_t m, int sbit, int inclusive) {
  value_t v = {.u = value};
  return scan("CMMD_scan_uint", type_uint, v, c, d, m, sbit, inclusive).u;
}
float CMMD_scan_float(float value, CMMD_combiner_t c, CMMD_scan_direction_t d,
                      CMMD_segment_mode_t m, int sbit, int inclusive) {
  value_t v = {.f = value};
  return scan("CMMD_scan_float", type_float, v, c, d, m, sbit, inclusive).f;
}
double CMMD_scan_double(double value, CMMD_combiner_t c, CMMD_scan_direction_t d,
                        CMMD_segment_mode_t m, int sbit, int inclusive) {
  value_t v = {.d = value};
  return scan("CMMD_scan_double", type_double, v, c, d, m, sbit, inclusive).d;
}

/* ---- broadcast ------------------------------------------------------------------ */

struct bc_chunk {
  int32_t sending;
  int32_t len;
  char bytes[CM5_CONTROL_BYTES - 16]; /* a round's kind and length go ahead */
};

static void broadcast(const char *who, int sending, void *buf, int len) {
  if (len < 0) cm5_fail("%s: %d bytes", who, len);
  const int nodes = cm5_wire_nodes();
  struct bc_chunk *all = must_allocate(sizeof *all * (size_t)nodes);
  int done = 0;
  do {
    struct bc_chunk mine;
    memset(&mine, 0, sizeof mine);
    mine.sending = sending;
    mine.len = len;
    const int bytes = len - done < (int)sizeof mine.bytes ? len - done : (int)sizeof mine.bytes;
    if (sending) memcpy(mine.bytes, (char *)buf + done, (size_t)bytes);
    exchange(who, op_broadcast, &mine, sizeof mine, all,
             cm5_wire_collective_ns("broadcast", broadcast_ns));
    int sender = -1;
    for (int q = 0; q < nodes; ++q) {
      if (all[q].len != len)
        cm5_fail("%s: node %d broadcasts or receives %d bytes, this node %d", who, q, all[q].len, len);
      if (all[q].sending) {
        if (sender >= 0)
          cm5_fail("%s: nodes %d and %d both called CMMD_bc_to_nodes", who, sender, q);
        sender = q;
      }
    }
    if (sender < 0) cm5_fail("%s: no node called CMMD_bc_to_nodes", who);
    if (!sending) memcpy((char *)buf + done, all[sender].bytes, (size_t)bytes);
    done += bytes;
  } while (done < len);
  free(all);
}

void CMMD_bc_to_nodes(const void *buf, int len) {
  broadcast("CMMD_bc_to_nodes", 1, (void *)buf, len);
}

void CMMD_receive_bc_from_node(void *buf, int len) {
  broadcast("CMMD_receive_bc_from_node", 0, buf, len);
}
