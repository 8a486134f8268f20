/* Global operations of the message-passing emulations (NX's gsync/gdsum...,
 * MPL's mpc_sync/mpc_combine/mpc_bcast/mpc_index), built once on the wire's
 * own network (WIRE_GLOBAL): a gather to node 0 and a broadcast. They block,
 * serving nothing else meanwhile, as the real layers' did -- which is why a
 * port must never call them while its peers may wait for its messages
 * (Luna 1994 §4.3.3). Every node calls them in the same order. */
#ifndef MSGPASS_GLOBAL_H
#define MSGPASS_GLOBAL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* combine(into, from, context): into = into (op) from, `bytes` each. */
typedef void (*global_combine_fn)(void *into, const void *from, size_t bytes, void *context);

/* x = x (op) every node's x, on every node; `work` holds `bytes`. A node that
 * contributes another size ends the job ("<layer>: node N: <what>: ..."). */
void global_allreduce(void *x, size_t bytes, void *work, global_combine_fn combine, void *context,
                      const char *layer, const char *what);
void global_broadcast(void *buf, size_t bytes, int root, const char *layer, const char *what);
/* Block i of `send` (bytes each) goes to node i's `receive` block me. */
void global_alltoall(const void *send, void *receive, size_t bytes, const char *layer,
                     const char *what);

#ifdef __cplusplus
}
#endif

#endif
