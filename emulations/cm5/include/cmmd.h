/* CMMD, the CM-5's node library, as far as this emulation provides it: the
 * node's identity and the control network (barrier, reductions, scans,
 * broadcast). CMAML (cmaml.h) and CMAM (cmam.h) are in their own headers here;
 * CMMD 3.x shipped them all behind <cm/cmmd.h> (README.md). Names marked [V]
 * in README.md are CMMD's; the argument lists of the scans and broadcasts are
 * recalled [U].
 *
 * Every control-network operation is collective: all nodes of the partition
 * call the same operations in the same order. While a node waits in one it
 * keeps draining both data networks, running handlers [U] -- so a node that
 * waits for a reply from a node already in a barrier still gets it. */
#ifndef CMMD_H
#define CMMD_H

#ifdef __cplusplus
extern "C" {
#endif

int CMMD_self_address(void);  /* this node, 0 .. CMMD_partition_size()-1 */
int CMMD_partition_size(void);

void CMMD_sync_with_nodes(void);

typedef enum {
  CMMD_combiner_add,   /* int */
  CMMD_combiner_uadd,  /* unsigned */
  CMMD_combiner_fadd,  /* float */
  CMMD_combiner_dadd,  /* double */
  CMMD_combiner_max,   /* int, unsigned (umax), float, double */
  CMMD_combiner_umax,
  CMMD_combiner_dmax,
  CMMD_combiner_min,
  CMMD_combiner_umin,
  CMMD_combiner_dmin,
  CMMD_combiner_ior,   /* bitwise, integers only */
  CMMD_combiner_xor,
  CMMD_combiner_and
} CMMD_combiner_t;

int CMMD_reduce_int(int value, CMMD_combiner_t combiner);
unsigned CMMD_reduce_uint(unsigned value, CMMD_combiner_t combiner);
float CMMD_reduce_float(float value, CMMD_combiner_t combiner);
double CMMD_reduce_double(double value, CMMD_combiner_t combiner);

/* Scans [U]: upward combines nodes 0..self, downward self..P-1; with
 * CMMD_segment_bit, a node whose sbit is non-zero starts a new segment;
 * inclusive selects an inclusive scan, else exclusive (node 0 of a segment
 * then gets the combiner's identity: 0 for add/ior/xor, ~0 for and, the
 * type's lowest/highest value for max/min). */
typedef enum { CMMD_upward, CMMD_downward } CMMD_scan_direction_t;
typedef enum { CMMD_none, CMMD_segment_bit } CMMD_segment_mode_t;
int CMMD_scan_int(int value, CMMD_combiner_t combiner, CMMD_scan_direction_t direction,
                  CMMD_segment_mode_t smode, int sbit, int inclusive);
unsigned CMMD_scan_uint(unsigned value, CMMD_combiner_t combiner, CMMD_scan_direction_t direction,
                        CMMD_segment_mode_t smode, int sbit, int inclusive);
float CMMD_scan_float(float value, CMMD_combiner_t combiner, CMMD_scan_direction_t direction,
                      CMMD_segment_mode_t smode, int sbit, int inclusive);
double CMMD_scan_double(double value, CMMD_combiner_t combiner, CMMD_scan_direction_t direction,
                        CMMD_segment_mode_t smode, int sbit, int inclusive);

/* Broadcast over the control network: one node calls CMMD_bc_to_nodes, all
 * the others CMMD_receive_bc_from_node with the same length [U]. */
void CMMD_bc_to_nodes(const void *buf, int len);
void CMMD_receive_bc_from_node(void *buf, int len);

/* ---- point-to-point (src/cmmd_p2p.c; README.md, "Point-to-point") ----------
 * Messages are rendezvous: a send is done once its data have left, which is
 * after the receiver has posted a matching receive. A receive names a node or
 * CMMD_ANY_NODE and a tag (>= 0) or CMMD_ANY_TAG; one sender's messages are
 * received in the order sent, among those a receive matches. Lengths are bytes;
 * a message longer than the buffer is cut to it (CMMD_bytes_received,
 * CMMD_mcb_bytes tell what arrived). Values of the constants are [U]. */
#define CMMD_ANY_NODE (-1)
#define CMMD_ANY_TAG (-1)
#define CMMD_DEFAULT_TAG 0
#define CMMD_ERRVAL (-1)
enum { CMMD_ERR_NO_RPORTS = 1, CMMD_ERR_NO_MCBS = 2 };
typedef int CMMD_mcb;
/* Runs once when an asynchronous operation completes, inside a CMMD call of
 * this node: handler(mcb, harg) [U: the first parameter]. */
typedef void (*CMMD_mcb_handler_t)(CMMD_mcb mcb, void *harg);

int CMMD_send_block(int node, int tag, const void *buf, int len);
int CMMD_send(int node, int tag, const void *buf, int len);         /* = send_block */
int CMMD_send_noblock(int node, int tag, const void *buf, int len); /* = send_block */
int CMMD_receive_block(int node, int tag, void *buf, int len);
int CMMD_receive(int node, int tag, void *buf, int len);            /* = receive_block */
/* The receive half is posted first; returns 1. */
int CMMD_send_and_receive(int source, int source_tag, void *receive_buf, int receive_len,
                          int destination, int destination_tag, const void *send_buf,
                          int send_len);
/* Asynchronous: an MCB, or CMMD_ERRVAL with CMMD_get_errno() CMMD_ERR_NO_RPORTS (a
 * receive holds one of the node's 64 receive ports until it completes) or
 * CMMD_ERR_NO_MCBS (1024 MCBs in use). */
CMMD_mcb CMMD_send_async(int node, int tag, const void *buf, int len,
                         CMMD_mcb_handler_t handler, void *harg);
CMMD_mcb CMMD_receive_async(int node, int tag, void *buf, int len,
                            CMMD_mcb_handler_t handler, void *harg);
int CMMD_msg_done(CMMD_mcb mcb);
void CMMD_msg_wait(CMMD_mcb mcb);
/* A send in progress is freed when done; a receive not yet matched is withdrawn. */
void CMMD_free_mcb(CMMD_mcb mcb);
int CMMD_all_msgs_done(void);
void CMMD_all_msgs_wait(void);
int CMMD_mcb_bytes(CMMD_mcb mcb);
int CMMD_mcb_node(CMMD_mcb mcb); /* the destination of a send, the sender of a receive */
int CMMD_mcb_tag(CMMD_mcb mcb);
/* The last message received by a blocking receive or a CMMD_msg_wait. */
int CMMD_bytes_received(void);
int CMMD_msg_sender(void);
int CMMD_msg_tag(void);
/* Whether a message that a receive (node, tag) would match has been sent here. */
int CMMD_msg_pending(int node, int tag);
int CMMD_get_errno(void);

/* ---- emulation extensions (not CMMD's) ------------------------------------
 * Errors of the layer (a node or handler out of range, a reply from a reply
 * handler, a control-network misuse) end the partition: the message
 * ("CMAML_reply: ...") goes to the hook when one is set (a port names the
 * processor and ends its job its own way; the hook must not return), else it
 * is printed as "CMMD node N: <message>" and the node exits with status 70
 * (on the sim engine: the engine's failure path). */
typedef void (*CMMD_error_hook_t)(const char *message);
void CMMD_set_error_hook(CMMD_error_hook_t hook);

/* Real processes: a partition is a shared-memory file made by the launcher
 * (CMMD_partition_create, whose descriptor every node inherits through
 * CMMD_PARTITION_FD); a node learns its number from CMMD_NODE, or from
 * CMMD_enroll before its first CMMD/CMAML call. A program started without a
 * partition is a partition of one. On the sim engine these are not used. */
int CMMD_partition_create(int nodes); /* the descriptor, or -1 (errno set) */
void CMMD_enroll(int node);

/* Virtual or host time in microseconds (the cost-model's clock on sim). */
double CMMD_time_us(void);

/* Packets one network holds from one node to another before a sender finds it full: the
 * partition's ring size on real processes (CMMD_NETWORK_PACKETS, else chosen by the number of
 * nodes), 0 on the sim engine, whose channels do not fill. */
long CMMD_network_packets(void);

#ifdef __cplusplus
}
#endif

#endif /* CMMD_H */
