/* The splitcc runtime library (-lsplitcc-runtime): the start-up list of
 * spread-array allocations and the Split-C library calls splitc.h lacks
 * (split-c/splitcc-runtime.h). */
#define _POSIX_C_SOURCE 200809L
#include <split-c/splitcc-runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


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

int splitcc_procs_log(void) {
  int log = 0;
  while ((1 << log) < splitc_procs()) ++log;
  return log;
}

/* The gathers of later Split-C releases (docs/splitcc.md, "The library of
 * later releases"). Weak: a program that defines its own, as some did on the
 * machines whose library lacked them, keeps its own. Each processor's
 * val[0] goes into val[j] of processor 0 (gather) or of every processor
 * (concat), j the sender. The values meet in a spread array of PROCS
 * objects, one on each processor. */
static void splitcc_gather(void *val, int size, int everyone, const char *op) {
  int j;
  const int procs = splitc_procs();
  __globPtrType slots = all_spread_malloc(procs, size);
  if (slots.addr == NULL) {
    fprintf(stderr, "splitc: processor %d: %s: the spread heap has no room for %d bytes\n",
            splitc_myproc(), op, procs * size);
    exit(1);
  }
  memcpy(tolocal(splitc_spread_add(slots, splitc_myproc(), (size_t)size)), val, (size_t)size);
  barrier();
  if (everyone || splitc_myproc() == 0)
    for (j = 0; j < procs; ++j)
      bulk_read((char *)val + (size_t)j * (size_t)size, splitc_spread_add(slots, j, (size_t)size), size);
  barrier();
  all_spread_free(slots);
}

__attribute__((weak)) void all_gather(int *val) { splitcc_gather(val, sizeof *val, 0, "all_gather"); }
__attribute__((weak)) void all_gather_d(double *val) {
  splitcc_gather(val, sizeof *val, 0, "all_gather_d");
}
__attribute__((weak)) void all_concat(int *val) { splitcc_gather(val, sizeof *val, 1, "all_concat"); }
__attribute__((weak)) void all_concat_d(double *val) {
  splitcc_gather(val, sizeof *val, 1, "all_concat_d");
}
