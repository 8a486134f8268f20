/* EM3D in Split-C (the language paper's Programs 2, 4, 5 and 5b): E nodes
 * read H nodes through global pointers, then through ghost nodes filled by
 * split-phase gets (:=, sync), by signalling stores (:-, store_sync), and
 * by bulk stores. All four give the same E values as the formula below.
 * After each version processor 0 prints one "result" line per processor (a
 * digest of its E values), which the test splitcc.compare.em3d.* checks
 * against the C++ reference, tests/splitcc/reference/em3d_ref.cpp. */
#include <split-c/split-c.h>
#include <stdio.h>

#include "result_digest.h"

#define NODES 16
#define DEGREE 5

typedef struct node_t {
  double value;
  int edge_count;
  double coeffs[DEGREE];
  double *global values[DEGREE]; /* global pointers to the H values */
  double ghost[DEGREE];          /* local copies (Program 4) */
} graph_node;

typedef struct store_entry_t {
  double *global ghost_value; /* where this H value is wanted */
  double *local_value;
} store_entry;

graph_node e_nodes[NODES];
double h_values[NODES];
double ghosts[NODES * DEGREE]; /* filled by the other processors' stores */
store_entry h_store_list[NODES * DEGREE];

static double h_initial(int proc, int j) { return 1.0 + proc * 100 + j; }

/* Edge i of E node j on processor p reads H node (j + i) on p + i + 1. */
static int edge_proc(int p, int i) { return (p + i + 1) % PROCS; }
static int edge_node(int j, int i) { return (j + i) % NODES; }

static double expected(int p, int j) {
  double v = 10.0;
  int i;
  for (i = 0; i < DEGREE; i++) v -= h_initial(edge_proc(p, i), edge_node(j, i)) * (0.5 + i);
  return v;
}

void all_compute_E_global(void) /* Program 2 */
{
  graph_node *n;
  int i;
  for (n = e_nodes; n < e_nodes + NODES; n++)
    for (i = 0; i < n->edge_count; i++)
      n->value = n->value - *(n->values[i]) * (n->coeffs[i]);
  barrier();
}

void all_compute_E_split_phase(void) /* Program 4 */
{
  graph_node *n;
  int i;
  for (n = e_nodes; n < e_nodes + NODES; n++)
    for (i = 0; i < n->edge_count; i++)
      n->ghost[i] := *(n->values[i]);
  sync();
  for (n = e_nodes; n < e_nodes + NODES; n++)
    for (i = 0; i < n->edge_count; i++)
      n->value = n->value - n->ghost[i] * n->coeffs[i];
  barrier();
}

void all_compute_E_store(void) /* Program 5 */
{
  store_entry *s;
  graph_node *n;
  int i, k = 0;
  for (s = h_store_list; s < h_store_list + NODES * DEGREE; s++)
    *s->ghost_value :- *(s->local_value);
  store_sync(NODES * DEGREE * sizeof(double));
  for (n = e_nodes; n < e_nodes + NODES; n++)
    for (i = 0; i < n->edge_count; i++)
      n->value = n->value - ghosts[k++] * n->coeffs[i];
  barrier();
}

double ghosts_by_edge[DEGREE][NODES]; /* Program 5b: one bulk store per edge index */

void all_compute_E_bulk_store(void) /* Program 5b */
{
  double buffer[NODES];
  graph_node *n;
  int i, j;
  /* Edge i of this processor's E nodes reads processor MYPROC + i + 1: so
   * this processor owes processor MYPROC - i - 1 the values of its H nodes
   * edge_node(j, i), for every j, in one block. */
  for (i = 0; i < DEGREE; i++) {
    int p = ((MYPROC - i - 1) % PROCS + PROCS) % PROCS;
    for (j = 0; j < NODES; j++) buffer[j] = h_values[edge_node(j, i)];
    bulk_store(toglobal(p, &ghosts_by_edge[i][0]), buffer, sizeof buffer);
  }
  store_sync(DEGREE * NODES * sizeof(double));
  for (j = 0, n = e_nodes; n < e_nodes + NODES; n++, j++)
    for (i = 0; i < n->edge_count; i++)
      n->value = n->value - ghosts_by_edge[i][j] * n->coeffs[i];
  barrier();
}

static void reset(void)
{
  int j, i;
  for (j = 0; j < NODES; j++) {
    e_nodes[j].value = 10.0;
    e_nodes[j].edge_count = DEGREE;
    for (i = 0; i < DEGREE; i++) {
      e_nodes[j].coeffs[i] = 0.5 + i;
      e_nodes[j].values[i] = toglobal(edge_proc(MYPROC, i), &h_values[edge_node(j, i)]);
    }
  }
}

static int check(const char *version)
{
  int j, bad = 0;
  for (j = 0; j < NODES; j++)
    if (e_nodes[j].value != expected(MYPROC, j)) bad++;
  bad = all_reduce_to_all_add(bad);
  on_one { printf("em3d %s: %s\n", version, bad ? "WRONG" : "ok"); }
  return bad;
}

/* The result lines: a digest of each processor's E values in node order. */
static void print_result(const char *tag)
{
  char prefix[64];
  int j;
  digest_start();
  for (j = 0; j < NODES; j++) digest_value(e_nodes[j].value);
  my_digest.count = NODES;
  snprintf(prefix, sizeof prefix, "result em3d %s", tag);
  digest_print(prefix, "nodes");
}

static const struct {
  void (*compute)(void);
  const char *name;
  const char *tag; /* in the result lines */
} versions[4] = {{all_compute_E_global, "global pointers", "global"},
                 {all_compute_E_split_phase, "split-phase", "split-phase"},
                 {all_compute_E_store, "store", "store"},
                 {all_compute_E_bulk_store, "bulk store", "bulk-store"}};

int splitc_main(int argc, char **argv)
{
  int j, i, v, bad = 0;
  for (j = 0; j < NODES; j++) h_values[j] = h_initial(MYPROC, j);
  /* Ghost slot k = j*DEGREE + i of processor p is written by the owner of
   * H node edge_node(j, i): processor edge_proc(p, i). Each processor q
   * finds the slots it owes: on p = q - i - 1. */
  for (j = 0; j < NODES; j++)
    for (i = 0; i < DEGREE; i++) {
      int p = ((MYPROC - i - 1) % PROCS + PROCS) % PROCS;
      store_entry *s = &h_store_list[j * DEGREE + i];
      s->ghost_value = toglobal(p, &ghosts[j * DEGREE + i]);
      s->local_value = &h_values[edge_node(j, i)];
    }
  barrier();
  for (v = 0; v < 4; v++) {
    reset();
    versions[v].compute();
    bad += check(versions[v].name);
    print_result(versions[v].tag);
  }
  on_one { printf(bad ? "FAIL em3d\n" : "PASS em3d\n"); }
  return bad != 0;
}
