/* The substrate seam of the message-passing emulations (NX, emulations/nx;
 * MPL, emulations/mpl): typed point-to-point messages with receive matching,
 * on two networks. Everything a vendor call does beyond this -- its names,
 * its argument checks and errors, message ids, info, handlers, the global
 * operations -- is written once above the seam. Two implementations:
 * wire_mpi.c (real processes: MPI, whose matching is NX's and MPL's) and
 * wire_sim.c (the sim backend's engine: matching done here, in virtual
 * time). */
#ifndef MSGPASS_WIRE_H
#define MSGPASS_WIRE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Networks: the user's messages, and the layer's own global operations
 * (which therefore never match a user's receive). */
enum { WIRE_USER = 0, WIRE_GLOBAL = 1, WIRE_NETWORKS = 2 };

/* Selectors: -1 matches any node / any type. Types are 0 .. wire_max_type(). */
enum { WIRE_ANY = -1 };

typedef struct wire_status {
  int source;     /* sending node */
  long type;      /* the message's type */
  size_t length;  /* bytes received */
  int truncated;  /* the message was longer than the receive (its length is then unknown) */
} wire_status;

/* The job: started on the first call of the layer (idempotent). */
void wire_start(void);
int wire_self(void);
int wire_procs(void);
double wire_seconds(void);
long wire_max_type(void);

/* Requests: small non-negative handles, valid until wire_test says done or
 * wire_cancel. wire_isend may complete at once (the data is copied or
 * sent); its buffer is the caller's again when the request is done. */
int wire_isend(int net, const void *buf, size_t len, int node, long type);
/* A blocking send of a small message (at most WIRE_SEND_NOW_MAX bytes): the
 * buffer is the caller's again on return, at once, since such a message is
 * copied out or buffered by the receiver (MPI: eager; the engine: sent at
 * once). What csend / mpc_bsend do for small messages, without a request. */
#define WIRE_SEND_NOW_MAX 1024
void wire_send_now(int net, const void *buf, size_t len, int node, long type);
int wire_irecv(int net, void *buf, size_t cap, int node_sel, long type_sel);
/* 1 when done (fills *st when not NULL, frees the handle), 0 otherwise. */
int wire_test(int req, wire_status *st);
/* Is this a live handle? */
int wire_live(int req);
/* Cancel a receive not yet matched (frees the handle); 0 if it had completed. */
int wire_cancel(int req);
/* 1 when a message matching the selectors waits unreceived (fills *st: its
 * source, type and full length), 0 otherwise. */
int wire_probe(int net, int node_sel, long type_sel, wire_status *st);
/* Nothing arrived that the caller can use: let others run (back off on real
 * processes, suspend in the engine). `what` names the wait. */
void wire_idle(const char *what);

/* How many nodes this process holds: 1 on real processes (MPI), every node
 * of the job on the engine. Where it is 1, an emulation may keep the pointer
 * wire_node_state gave it and skip the call from then on. */
int wire_nodes_in_process(void);

/* A node's state in an emulation. On real processes each node is a process
 * with statics of its own; on the engine every simulated node shares them.
 * So an emulation keeps its state in one struct of `bytes` and reaches it
 * here: `*all` (a static of the emulation, NULL at first) becomes an array of
 * zeroed structs, one per node of this process, and the calling node's is
 * returned. Call it after wire_start. */
void *wire_node_state(void **all, size_t bytes);

/* An error of the emulated layer that ends the job: prints
 * "<layer>: node N: <message>" (on the engine: "splitc: processor N of P:
 * <layer>: <message>") and ends every process. */
void wire_fail(const char *layer, const char *message) __attribute__((noreturn));

#ifdef __cplusplus
}
#endif

#endif
