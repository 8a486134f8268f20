/* The splitcc runtime library (-lsplitcc-runtime): the start-up list of
 * spread-array allocations and the Split-C library calls splitc.h lacks
 * (split-c/splitcc-runtime.h). */
#define _POSIX_C_SOURCE 200809L
#include <split-c/splitcc-runtime.h>


/* Kept in registration order: constructors run in link order, the same in
 * every process of a job, so every processor allocates the same arrays in
 * the same order (all_spread_malloc is collective). */
static struct splitcc_initializer *first_initializer;
static struct splitcc_initializer **last_initializer = &first_initializer;

void splitcc_add_initializer(struct splitcc_initializer *node) {
  node->next = NULL;
  *last_initializer = node;
  last_initializer = &node->next;
}

void splitcc_run_initializers(void) {
  for (struct splitcc_initializer *n = first_initializer; n != NULL; n = n->next) n->run();
  if (first_initializer != NULL) barrier();
}

double get_seconds(void) { return splitc_get_seconds(); }

void reset_store_sync(void) {
  struct splitc_context_prefix *c = splitc_context_();
  *c->store_sent = 0;
  __atomic_store_n(c->store_received, 0, __ATOMIC_SEQ_CST);
}

int splitcc_procs_log(void) {
  int log = 0;
  while ((1 << log) < splitc_procs()) ++log;
  return log;
}
