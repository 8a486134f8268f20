/* The message-passing wire on real processes: MPI (Open MPI or MPICH, the
 * library this file is compiled against). A network is a communicator of
 * its own, a type is an MPI tag, a selector of -1 is MPI_ANY_SOURCE /
 * MPI_ANY_TAG: MPI's matching (posting order, non-overtaking per pair) is
 * the one NX and MPL had. The job starts with the first call (MPI_Init) and
 * ends at exit: MPI_Finalize after a zero status (receives still posted are
 * withdrawn first), MPI_Abort after another, so a process that fails never
 * leaves its peers waiting. */
#define _GNU_SOURCE
#include "wire.h"

#include <emulation_wait.h>
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int started, owns_mpi, self_node, nodes = 1;
/* A handle's state: free, live for a send or a receive, or parked: a receive's
 * persistent request, done and inactive, kept for the next receive of the same
 * buffer and selectors (below). */
enum { HANDLE_FREE = 0, HANDLE_SEND = 1, HANDLE_RECEIVE = 2, HANDLE_PARKED = 3 };
static long max_type = 32767;
static MPI_Comm comms[WIRE_NETWORKS];
static MPI_Request *requests;
static unsigned char *live;
static int *free_list, free_count, capacity;
static unsigned idle_rounds;

/* Receives are persistent requests (MPI_Recv_init), started again when a
 * receive of the same buffer, size, selectors and network is posted: NXAM
 * posts its ring of packet receives over and over. A persistent request that
 * completes only turns inactive, where a plain one is freed inside the
 * MPI_Test that completes it -- on every round trip's critical path, on both
 * sides (docs/ports.md). At most MAX_PARKED wait to be started again; beyond
 * that the oldest is freed (one-off receives: a long message's data). */
struct receive_key {
  void *buf;
  size_t cap;
  int node_sel, net;
  long type_sel;
};
enum { MAX_PARKED = 64 };
static struct receive_key *keys; /* per handle, for receives */
static int parked[MAX_PARKED], parked_count;

static int mpi_up(void) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}

static void give_handle(int h);

/* Receives still posted at a clean exit (MPL cannot cancel one, so the MPL
 * port leaves its receives to the end of the job) are withdrawn before
 * MPI_Finalize: MPICH over UCX otherwise reports each as a request "not
 * returned to mpool". */
static void withdraw_receives(void) {
  for (int h = 0; h < capacity; ++h) {
    if (live[h] == HANDLE_RECEIVE) {
      MPI_Cancel(&requests[h]);
      MPI_Wait(&requests[h], MPI_STATUS_IGNORE);
    }
    if (live[h] == HANDLE_RECEIVE || live[h] == HANDLE_PARKED) {
      MPI_Request_free(&requests[h]);
      give_handle(h);
    }
  }
  parked_count = 0;
}

static void at_exit(int status, void *unused) {
  (void)unused;
  if (!mpi_up()) return;
  if (status != 0) {
    /* Said here, not left to mpirun (whose own report is sometimes lost). */
    fprintf(stderr, "wire: node %d: exit status %d; ending the job\n", self_node, status);
    /* Give the launcher a moment to forward what the process wrote last. */
    struct timespec t = {0, 50 * 1000 * 1000};
    fflush(NULL);
    nanosleep(&t, NULL);
    MPI_Abort(MPI_COMM_WORLD, status);
  }
  if (owns_mpi) {
    withdraw_receives();
    MPI_Finalize();
  }
}

static void mpi_check(int rc, const char *what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING + 64];
  int n = 0;
  char err[MPI_MAX_ERROR_STRING] = {0};
  MPI_Error_string(rc, err, &n);
  snprintf(text, sizeof text, "%s failed: %s", what, err);
  wire_fail("wire", text);
}

void wire_start(void) {
  if (started) return;
  started = 1;
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) {
      fprintf(stderr, "wire: MPI_Init_thread failed\n");
      exit(70);
    }
    owns_mpi = 1;
  }
  on_exit(at_exit, NULL);
  for (int k = 0; k < WIRE_NETWORKS; ++k) {
    mpi_check(MPI_Comm_dup(MPI_COMM_WORLD, &comms[k]), "MPI_Comm_dup");
    mpi_check(MPI_Comm_set_errhandler(comms[k], MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  }
  MPI_Comm_rank(comms[0], &self_node);
  MPI_Comm_size(comms[0], &nodes);
  void *value = NULL;
  int found = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &found);
  if (found) max_type = *(int *)value;
}

void *wire_node_state(void **all, size_t bytes) {
  if (*all == NULL) {
    *all = calloc(1, bytes); /* this process is one node */
    if (*all == NULL) wire_fail("wire", "out of memory for the node's state");
  }
  return *all;
}

int wire_nodes_in_process(void) { return 1; }
int wire_self(void) { return self_node; }
int wire_procs(void) { return nodes; }
double wire_seconds(void) { return MPI_Wtime(); }
long wire_max_type(void) { return max_type; }

static int take_handle(int kind) {
  if (free_count == 0) {
    int grown = capacity ? 2 * capacity : 64;
    requests = realloc(requests, (size_t)grown * sizeof *requests);
    live = realloc(live, (size_t)grown);
    free_list = realloc(free_list, (size_t)grown * sizeof *free_list);
    keys = realloc(keys, (size_t)grown * sizeof *keys);
    if (!requests || !live || !free_list || !keys) wire_fail("wire", "out of memory for requests");
    for (int i = grown - 1; i >= capacity; --i) {
      live[i] = HANDLE_FREE;
      requests[i] = MPI_REQUEST_NULL;
      free_list[free_count++] = i;
    }
    capacity = grown;
  }
  int h = free_list[--free_count];
  live[h] = (unsigned char)kind;
  return h;
}

static void give_handle(int h) {
  live[h] = HANDLE_FREE;
  requests[h] = MPI_REQUEST_NULL;
  free_list[free_count++] = h;
}

int wire_live(int req) {
  return req >= 0 && req < capacity && (live[req] == HANDLE_SEND || live[req] == HANDLE_RECEIVE);
}

/* A receive's persistent request is done (completed or cancelled): keep it for
 * the next receive of its key, freeing the oldest kept beyond MAX_PARKED. */
static void park(int h) {
  if (parked_count == MAX_PARKED) {
    int oldest = parked[0];
    memmove(parked, parked + 1, (MAX_PARKED - 1) * sizeof *parked);
    --parked_count;
    MPI_Request_free(&requests[oldest]);
    give_handle(oldest);
  }
  live[h] = HANDLE_PARKED;
  parked[parked_count++] = h;
}

static int same_key(const struct receive_key *a, const struct receive_key *b) {
  return a->buf == b->buf && a->cap == b->cap && a->node_sel == b->node_sel &&
         a->type_sel == b->type_sel && a->net == b->net;
}

int wire_isend(int net, const void *buf, size_t len, int node, long type) {
  int h = take_handle(HANDLE_SEND);
  mpi_check(MPI_Isend(buf, (int)len, MPI_BYTE, node, (int)type, comms[net], &requests[h]),
            "MPI_Isend");
  return h;
}

void wire_send_now(int net, const void *buf, size_t len, int node, long type) {
  mpi_check(MPI_Send(buf, (int)len, MPI_BYTE, node, (int)type, comms[net]), "MPI_Send");
}

int wire_irecv(int net, void *buf, size_t cap, int node_sel, long type_sel) {
  const struct receive_key key = {buf, cap, node_sel, net, type_sel};
  for (int i = parked_count - 1; i >= 0; --i) {
    int h = parked[i];
    if (!same_key(&keys[h], &key)) continue;
    memmove(parked + i, parked + i + 1, (size_t)(parked_count - i - 1) * sizeof *parked);
    --parked_count;
    live[h] = HANDLE_RECEIVE;
    mpi_check(MPI_Start(&requests[h]), "MPI_Start");
    return h;
  }
  int h = take_handle(HANDLE_RECEIVE);
  keys[h] = key;
  mpi_check(MPI_Recv_init(buf, (int)cap, MPI_BYTE, node_sel < 0 ? MPI_ANY_SOURCE : node_sel,
                          type_sel < 0 ? MPI_ANY_TAG : (int)type_sel, comms[net], &requests[h]),
            "MPI_Recv_init");
  mpi_check(MPI_Start(&requests[h]), "MPI_Start");
  return h;
}

/* A request done: a send's handle is free again, a receive's is parked. */
static void done_with(int h) {
  if (live[h] == HANDLE_RECEIVE)
    park(h);
  else
    give_handle(h);
}

/* A request that ended in an error (a message longer than the receive) is
 * not started again: freed, unless the MPI freed it already. */
static void drop_errored(int h) {
  if (requests[h] != MPI_REQUEST_NULL) MPI_Request_free(&requests[h]);
  give_handle(h);
}

/* The bytes a completed receive's status says arrived: MPI_Get_count, or under
 * Open MPI the status's own public field, which holds that number (reading it
 * saves a library call of some 45 instructions on every message received,
 * which NXAM's round trip pays on both sides: docs/ports.md). */
static size_t received_bytes(const MPI_Status *s) {
#if defined(OPEN_MPI) && OPEN_MPI
  return s->_ucount;
#else
  int count = 0;
  MPI_Get_count(s, MPI_BYTE, &count);
  return count < 0 ? 0 : (size_t)count;
#endif
}

int wire_test(int req, wire_status *st) {
  int done = 0;
  MPI_Status s;
  int rc = MPI_Test(&requests[req], &done, &s);
  int truncated = 0;
  if (rc != MPI_SUCCESS) {
    int cls = 0;
    MPI_Error_class(rc, &cls);
    if (cls == MPI_ERR_IN_STATUS) MPI_Error_class(s.MPI_ERROR, &cls);
    if (cls != MPI_ERR_TRUNCATE) mpi_check(rc, "MPI_Test");
    truncated = done = 1;
  }
  if (!done) return 0;
  idle_rounds = 0;
  if (st) {
    st->source = s.MPI_SOURCE;
    st->type = s.MPI_TAG;
    st->length = received_bytes(&s);
    st->truncated = truncated;
  }
  if (truncated)
    drop_errored(req);
  else
    done_with(req);
  return 1;
}

int wire_cancel(int req) {
  int done = 0;
  MPI_Status s;
  const int rc = MPI_Test(&requests[req], &done, &s);
  if (rc != MPI_SUCCESS) {
    drop_errored(req);
    return 0;
  }
  if (done) {
    done_with(req);
    return 0;
  }
  MPI_Cancel(&requests[req]);
  MPI_Wait(&requests[req], &s);
  done_with(req);
  return 1;
}

int wire_probe(int net, int node_sel, long type_sel, wire_status *st) {
  int flag = 0;
  MPI_Status s;
  mpi_check(MPI_Iprobe(node_sel < 0 ? MPI_ANY_SOURCE : node_sel,
                       type_sel < 0 ? MPI_ANY_TAG : (int)type_sel, comms[net], &flag, &s),
            "MPI_Iprobe");
  if (!flag) return 0;
  idle_rounds = 0;
  if (st) {
    st->source = s.MPI_SOURCE;
    st->type = s.MPI_TAG;
    st->length = received_bytes(&s);
    st->truncated = 0;
  }
  return 1;
}

/* Spin briefly, then yield, then sleep: tests run more processes than cores. */
void wire_idle(const char *what) {
  (void)what;
  ++idle_rounds;
  if (idle_rounds < 64) return;
  if (idle_rounds < 1024) {
    emulation_yield(20 * 1000);
    return;
  }
  struct timespec t = {0, 20 * 1000};
  nanosleep(&t, NULL);
}

void wire_fail(const char *layer, const char *message) {
  fprintf(stderr, "%s: node %d: %s\n", layer, self_node, message);
  fflush(stderr);
  exit(70); /* at_exit: MPI_Abort ends every process */
}
