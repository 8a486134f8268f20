/* Global operations on the wire (global.h). */
#include "global.h"

#include "wire.h"

#include <stdio.h>
#include <string.h>

/* One type per operation, in call order; per node (wire_node_state). */
static void *sequences;

static long next_type(void) {
  unsigned long *sequence = wire_node_state(&sequences, sizeof *sequence);
  return (long)((*sequence)++ % (unsigned long)(wire_max_type() + 1));
}

static void complete(int req, wire_status *st, const char *what) {
  while (!wire_test(req, st)) wire_idle(what);
}

static void receive_exactly(void *buf, size_t bytes, int node, long type, const char *layer,
                            const char *what) {
  wire_status st;
  complete(wire_irecv(WIRE_GLOBAL, buf, bytes, node, type), &st, what);
  if (st.truncated || st.length != bytes) {
    char text[200];
    snprintf(text, sizeof text, "%s: node %d contributed %s%zu bytes where %zu were expected",
             what, node, st.truncated ? "more than " : "", st.length, bytes);
    wire_fail(layer, text);
  }
}

void global_allreduce(void *x, size_t bytes, void *work, global_combine_fn combine, void *context,
                      const char *layer, const char *what) {
  wire_start();
  const long type = next_type();
  const int me = wire_self(), p = wire_procs();
  if (me != 0) {
    complete(wire_isend(WIRE_GLOBAL, x, bytes, 0, type), NULL, what);
    receive_exactly(x, bytes, 0, type, layer, what);
    return;
  }
  for (int node = 1; node < p; ++node) {
    receive_exactly(work, bytes, node, type, layer, what);
    if (combine) combine(x, work, bytes, context);
  }
  for (int node = 1; node < p; ++node) complete(wire_isend(WIRE_GLOBAL, x, bytes, node, type), NULL, what);
}

void global_broadcast(void *buf, size_t bytes, int root, const char *layer, const char *what) {
  wire_start();
  const long type = next_type();
  const int me = wire_self(), p = wire_procs();
  if (me != root) {
    receive_exactly(buf, bytes, root, type, layer, what);
    return;
  }
  for (int node = 0; node < p; ++node)
    if (node != root) complete(wire_isend(WIRE_GLOBAL, buf, bytes, node, type), NULL, what);
}

void global_alltoall(const void *send, void *receive, size_t bytes, const char *layer,
                     const char *what) {
  wire_start();
  const long type = next_type();
  const int me = wire_self(), p = wire_procs();
  const char *from = send;
  char *to = receive;
  memcpy(to + (size_t)me * bytes, from + (size_t)me * bytes, bytes);
  for (int k = 1; k < p; ++k) {
    const int dest = (me + k) % p, source = (me + p - k) % p;
    const int out = wire_isend(WIRE_GLOBAL, from + (size_t)dest * bytes, bytes, dest, type);
    receive_exactly(to + (size_t)source * bytes, bytes, source, type, layer, what);
    complete(out, NULL, what);
  }
}
