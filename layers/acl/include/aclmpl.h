/* The ACL Message Passing Library on splitc (layers/acl, docs/acl.md): CMMD's message passing
 * as Los Alamos rebuilt it for speed on the Cray T3D (Painter et al. 1995), on splitc's
 * one-sided primitives, on every backend. CMMD's names and argument orders with the ACLMPL_
 * prefix; <aclmpl_cmmd.h> gives the CMMD_ names to old programs.
 *
 *   - Synchronous (a rendezvous, no buffering): ACLMPL_send_block, ACLMPL_receive_block,
 *     ACLMPL_send_and_receive (its receive half is posted first). Two processors that
 *     ACLMPL_send_block to each other deadlock, as under CMMD: the layer ends the job saying so.
 *   - Asynchronous (a pool of slots at every receiver, taken with a fetch-and-increment):
 *     ACLMPL_send_async, ACLMPL_receive_async return a message control block (mcb);
 *     ACLMPL_msg_done, ACLMPL_msg_wait, ACLMPL_free_mcb; ACLMPL_receive is the blocking form.
 *     A message sent synchronously is received synchronously, and one sent asynchronously
 *     asynchronously: the two families never match each other (the seed's two groups).
 *   - Matching: a receive names a node or ACLMPL_ANY_NODE and a tag (>= 0) or ACLMPL_ANY_TAG.
 *     Messages of one sender to one receiver are received in the order they were sent, among
 *     those the receive matches; a wildcard receive takes, among the senders, the message that
 *     announced itself (synchronous) or took its slot (asynchronous) first.
 *   - Global operations, on the synchronous primitives, rooted at processor 0: ACLMPL_bc
 *     (binomial tree), ACLMPL_reduce (the same tree reversed) and ACLMPL_reduce_swap (binary
 *     swap, then a gather on 0), with built-in or user operators, combined in processor order.
 *
 * Lengths are in bytes. A message longer than its receive buffer is cut to the buffer's
 * length; ACLMPL_bytes_received tells what arrived. Any call before ACLMPL_init, or with a
 * processor or tag out of range, ends the job with a message naming the processor and the
 * call. */
#ifndef ACLMPL_H
#define ACLMPL_H

#ifdef __cplusplus
extern "C" {
#endif

#define ACLMPL_ANY_NODE (-1)
#define ACLMPL_ANY_TAG (-1)
#define ACLMPL_DEFAULT_TAG 0

/* A message control block: a handle on an asynchronous send or receive. */
typedef int ACLMPL_mcb;
/* Called once when an asynchronous operation completes, from the layer's progress (inside an
 * ACLMPL call of this processor), with the mcb and the argument given at the start. */
typedef void (*ACLMPL_handler)(ACLMPL_mcb mcb, void *harg);
/* A reduction operator: inout[k] = inout[k] (op) in[k] for k < count, where inout holds the
 * operand of the lower-numbered processors. Need not be commutative. */
typedef void (*ACLMPL_op)(void *inout, const void *in, int count);

/* Joining and leaving (splitc_init and splitc_finalize underneath; start a job with
 * splitc-run -n P). ACLMPL_finalize waits until every asynchronous send has been received. */
void ACLMPL_init(int *argc, char ***argv);
void ACLMPL_finalize(void);

int ACLMPL_self_address(void);
int ACLMPL_partition_size(void);
void ACLMPL_sync_with_nodes(void);
/* Seconds on the job's clock (virtual time on the sim backends). */
double ACLMPL_time(void);

/* Synchronous. Each returns 1. */
int ACLMPL_send_block(int node, int tag, const void *buf, int len);
int ACLMPL_receive_block(int node, int tag, void *buf, int len);
int ACLMPL_send_and_receive(int source, int source_tag, void *receive_buf, int receive_len,
                            int destination, int destination_tag, const void *send_buf,
                            int send_len);
/* The last completed receive of this processor (synchronous or blocking asynchronous). */
int ACLMPL_bytes_received(void);
int ACLMPL_msg_sender(void);
int ACLMPL_msg_tag(void);

/* Asynchronous. A send of up to SPLITC_ACL_SLOT_BYTES bytes is copied into a slot of the
 * receiver's pool and is done at once; a longer one leaves a descriptor in the slot, and the
 * receiver takes the data straight from the sender's buffer when the message is received:
 * its mcb is done then, and the buffer must stay untouched until it is. */
ACLMPL_mcb ACLMPL_send_async(int node, int tag, const void *buf, int len,
                             ACLMPL_handler handler, void *harg);
ACLMPL_mcb ACLMPL_receive_async(int node, int tag, void *buf, int len,
                                ACLMPL_handler handler, void *harg);
/* Blocking asynchronous receive; returns the bytes received. */
int ACLMPL_receive(int node, int tag, void *buf, int len);
int ACLMPL_msg_done(ACLMPL_mcb mcb);
void ACLMPL_msg_wait(ACLMPL_mcb mcb);
/* Free an mcb. A send not yet done is freed when it completes; a receive not yet matched is
 * withdrawn. */
void ACLMPL_free_mcb(ACLMPL_mcb mcb);
void ACLMPL_all_msgs_wait(void);
/* An mcb's particulars: bytes received or sent, the sender (receive) or destination (send),
 * the message's tag. */
int ACLMPL_mcb_bytes(ACLMPL_mcb mcb);
int ACLMPL_mcb_node(ACLMPL_mcb mcb);
int ACLMPL_mcb_tag(ACLMPL_mcb mcb);
/* Whether a message from node (or ANY_NODE) with tag (or ANY_TAG) waits to be received:
 * an asynchronous one that arrived, or a synchronous sender blocked on this processor. */
int ACLMPL_msg_pending(int node, int tag);

/* Global operations, collective, rooted at processor 0. ACLMPL_bc copies processor 0's len
 * bytes into buf everywhere. The reductions leave the result of count elements of elem_size
 * bytes in processor 0's buf (the others' buf is used as scratch). */
int ACLMPL_bc(void *buf, int len);
int ACLMPL_reduce(void *buf, int count, int elem_size, ACLMPL_op op);
int ACLMPL_reduce_swap(void *buf, int count, int elem_size, ACLMPL_op op);

/* Built-in operators (commutative): ACLMPL_op_<add|max|min>_<type> for int, uint, long,
 * ulong, float, double; ACLMPL_op_<ior|and|xor>_<type> for the integer types. */
#define ACLMPL_OP_(type, a, b, c)                                        \
  void ACLMPL_op_##a##_##type(void *inout, const void *in, int count); \
  void ACLMPL_op_##b##_##type(void *inout, const void *in, int count); \
  void ACLMPL_op_##c##_##type(void *inout, const void *in, int count);
ACLMPL_OP_(int, add, max, min)
ACLMPL_OP_(uint, add, max, min)
ACLMPL_OP_(long, add, max, min)
ACLMPL_OP_(ulong, add, max, min)
ACLMPL_OP_(float, add, max, min)
ACLMPL_OP_(double, add, max, min)
#undef ACLMPL_OP_
void ACLMPL_op_ior_int(void *inout, const void *in, int count);
void ACLMPL_op_and_int(void *inout, const void *in, int count);
void ACLMPL_op_xor_int(void *inout, const void *in, int count);
void ACLMPL_op_ior_uint(void *inout, const void *in, int count);
void ACLMPL_op_and_uint(void *inout, const void *in, int count);
void ACLMPL_op_xor_uint(void *inout, const void *in, int count);
void ACLMPL_op_ior_long(void *inout, const void *in, int count);
void ACLMPL_op_and_long(void *inout, const void *in, int count);
void ACLMPL_op_xor_long(void *inout, const void *in, int count);
void ACLMPL_op_ior_ulong(void *inout, const void *in, int count);
void ACLMPL_op_and_ulong(void *inout, const void *in, int count);
void ACLMPL_op_xor_ulong(void *inout, const void *in, int count);

#ifdef ACLMPL_OVER_CMMD
/* On the CM-5 ports (cmaml, cmam and their sim forms), as the seed built ACLMPL for the CM-5:
 * the point-to-point calls are CMMD's own -- here the emulation's (emulations/cm5, cmmd.h) --
 * by #define, at no cost of their own; joining, identity, the barrier and the global
 * operations stay ACLMPL's (the seed kept its reduce, for user operators, and its broadcast,
 * faster than CMMD's for long messages). CMMD's asynchronous calls are rendezvous, not a pool. */
#include <cmmd.h>
#define ACLMPL_send_block CMMD_send_block
#define ACLMPL_receive_block CMMD_receive_block
#define ACLMPL_send_and_receive CMMD_send_and_receive
#define ACLMPL_bytes_received CMMD_bytes_received
#define ACLMPL_msg_sender CMMD_msg_sender
#define ACLMPL_msg_tag CMMD_msg_tag
#define ACLMPL_send_async CMMD_send_async
#define ACLMPL_receive_async CMMD_receive_async
/* ACLMPL_receive returns the bytes received; CMMD_receive returns 1. */
#define ACLMPL_receive(node, tag, buf, len) \
  (CMMD_receive((node), (tag), (buf), (len)), CMMD_bytes_received())
#define ACLMPL_msg_done CMMD_msg_done
#define ACLMPL_msg_wait CMMD_msg_wait
#define ACLMPL_free_mcb CMMD_free_mcb
#define ACLMPL_all_msgs_wait CMMD_all_msgs_wait
#define ACLMPL_mcb_bytes CMMD_mcb_bytes
#define ACLMPL_mcb_node CMMD_mcb_node
#define ACLMPL_mcb_tag CMMD_mcb_tag
#define ACLMPL_msg_pending CMMD_msg_pending
#endif

#ifdef __cplusplus
}
#endif

#endif /* ACLMPL_H */
