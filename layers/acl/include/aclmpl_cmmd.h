/* CMMD's names for ACLMPL (opt-in): an old CMM-5 program that included <cm/cmmd.h> includes this
 * instead and runs on splitc as it ran on the CM-5 -- the ACL library's own trick (on the CM-5,
 * ACLMPL was #defines over CMMD), reversed. docs/acl.md lists what is mapped.
 *
 * CMMD node programs had no call to join or leave: their main is renamed aclmpl_cmmd_main
 * here, and the layer's own main (in the aclmpl library, linked only where the program has
 * none) runs ACLMPL_init, the program's main on every processor, then ACLMPL_finalize. Its
 * return value is not the job's status (CMMD ignored it; K&R mains often return nothing):
 * a failing node program calls CMMD_error or exit with a non-zero status. Define
 * ACLMPL_CMMD_OWN_MAIN before including this header to keep main (and call ACLMPL_init and
 * ACLMPL_finalize yourself). */
#ifndef ACLMPL_CMMD_H
#define ACLMPL_CMMD_H

#include <aclmpl.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef ACLMPL_CMMD_OWN_MAIN
#define main aclmpl_cmmd_main
#endif

#define CMMD_ANY_NODE ACLMPL_ANY_NODE
#define CMMD_ANY_TAG ACLMPL_ANY_TAG
#define CMMD_DEFAULT_TAG ACLMPL_DEFAULT_TAG
#define CMMD_ERRVAL (-1)
typedef ACLMPL_mcb CMMD_mcb;

#define CMMD_self_address ACLMPL_self_address
#define CMMD_partition_size ACLMPL_partition_size
#define CMMD_sync_with_nodes ACLMPL_sync_with_nodes

#define CMMD_send_block ACLMPL_send_block
#define CMMD_send ACLMPL_send_block
#define CMMD_receive_block ACLMPL_receive_block
#define CMMD_send_and_receive ACLMPL_send_and_receive
#define CMMD_bytes_received ACLMPL_bytes_received
#define CMMD_msg_sender ACLMPL_msg_sender
#define CMMD_msg_tag ACLMPL_msg_tag

#define CMMD_send_async ACLMPL_send_async
#define CMMD_receive_async ACLMPL_receive_async
#define CMMD_receive ACLMPL_receive
#define CMMD_msg_done ACLMPL_msg_done
#define CMMD_msg_wait ACLMPL_msg_wait
#define CMMD_free_mcb ACLMPL_free_mcb
#define CMMD_all_msgs_wait ACLMPL_all_msgs_wait
#define CMMD_mcb_bytes ACLMPL_mcb_bytes
#define CMMD_mcb_node ACLMPL_mcb_node
#define CMMD_mcb_tag ACLMPL_mcb_tag
#define CMMD_msg_pending ACLMPL_msg_pending

/* Broadcast: CMMD's two calls (the root's and the others') are ACLMPL's one, from node 0. */
#define CMMD_bc_to_nodes(buf, len) ACLMPL_bc((buf), (len))
#define CMMD_receive_bc_from_node(buf, len) ACLMPL_bc((buf), (len))

/* Scalar reductions to every node (CMMD_reduce_*): ACLMPL_reduce to node 0, then ACLMPL_bc.
 * CMMD's combiners, as an enumeration of their names. */
typedef enum {
  CMMD_combiner_add,
  CMMD_combiner_max,
  CMMD_combiner_min,
  CMMD_combiner_ior,
  CMMD_combiner_xor,
  CMMD_combiner_and
} CMMD_combiner_t;

static __inline__ ACLMPL_op aclmpl_cmmd_op_int(CMMD_combiner_t c) {
  switch (c) {
    case CMMD_combiner_add: return ACLMPL_op_add_int;
    case CMMD_combiner_max: return ACLMPL_op_max_int;
    case CMMD_combiner_min: return ACLMPL_op_min_int;
    case CMMD_combiner_ior: return ACLMPL_op_ior_int;
    case CMMD_combiner_xor: return ACLMPL_op_xor_int;
    default: return ACLMPL_op_and_int;
  }
}

static __inline__ ACLMPL_op aclmpl_cmmd_op_double(CMMD_combiner_t c) {
  switch (c) {
    case CMMD_combiner_max: return ACLMPL_op_max_double;
    case CMMD_combiner_min: return ACLMPL_op_min_double;
    default: return ACLMPL_op_add_double;
  }
}

static __inline__ int CMMD_reduce_int(int value, CMMD_combiner_t c) {
  ACLMPL_reduce(&value, 1, (int)sizeof value, aclmpl_cmmd_op_int(c));
  ACLMPL_bc(&value, (int)sizeof value);
  return value;
}

/* Both return double in CMMD's header. */
static __inline__ double CMMD_reduce_double(double value, CMMD_combiner_t c) {
  ACLMPL_reduce(&value, 1, (int)sizeof value, aclmpl_cmmd_op_double(c));
  ACLMPL_bc(&value, (int)sizeof value);
  return value;
}

static __inline__ double CMMD_reduce_float(float value, CMMD_combiner_t c) {
  return CMMD_reduce_double((double)value, c);
}

/* CMMD_error: print, then end the whole job with a failure. */
static __inline__ void CMMD_error(const char *format, ...) {
  va_list args;
  va_start(args, format);
  fprintf(stderr, "CMMD_error on node %d: ", ACLMPL_self_address());
  vfprintf(stderr, format, args);
  va_end(args);
  fflush(stderr);
  exit(1);
}

#endif /* ACLMPL_CMMD_H */
